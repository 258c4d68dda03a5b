/** A screen's card with its title (an h2) and body: the one shape of the Monitor, Protect and Settings cards. */
import { Card, CardBody, CardHeader } from '@wordpress/components';
import type { ReactNode } from 'react';

export function TitledCard({ title, testId, children }: { title: ReactNode; testId?: string; children: ReactNode }) {
  return (
    <Card className="sw-card" data-testid={testId}>
      <CardHeader size="small">
        <h2 className="sw-card-title">{title}</h2>
      </CardHeader>
      <CardBody size="small">{children}</CardBody>
    </Card>
  );
}
