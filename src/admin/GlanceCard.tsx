/** A card of At a Glance: a titled box whose id and test id name it. */
import { Card, CardBody, CardHeader } from '@wordpress/components';
import type { ReactNode } from 'react';

export function GlanceCard({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Card className="sw-card" id={`card-${id}`} data-testid={`card-${id}`}>
      <CardHeader size="small">
        <h2 className="sw-card-title">{title}</h2>
      </CardHeader>
      <CardBody size="small">{children}</CardBody>
    </Card>
  );
}
