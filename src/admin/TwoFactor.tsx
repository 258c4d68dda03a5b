/**
 * The Two-factor screen: the logged-in user's second factor. Set up (a QR code drawn by the
 * server, the secret to type, a first code to confirm), then the recovery codes, shown once;
 * once on: how many recovery codes are left, new ones, and turning it off with the password.
 */
import { Button, Card, CardBody, CardHeader, Notice } from '@wordpress/components';
import { __, _n, sprintf } from '@wordpress/i18n';
import { useState } from 'react';
import { api } from './api';
import { useRest } from './data/use-rest';
import { errorText, useNotify } from './site';
import type { TwoFactorCodes, TwoFactorEnrolment, TwoFactorStatus } from './types';
import { TextRow } from './ui/form-rows';
import { Loaded } from './ui/Loaded';
import { FormError, useSubmit } from './ui/use-submit';

const P = '/siteward/v1/two-factor';

/** The codes as a text file: one a line, after a line that says what they are. */
export function recoveryCodesText(codes: readonly string[], site: string): string {
  // translators: %s: the site's host name.
  return `${sprintf(__('Recovery codes for %s (each logs you in once):', 'siteward'), site)}\n${codes.join('\n')}\n`;
}

function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const text = recoveryCodesText(codes, window.location.host);
  // A data: URL, so the file is ready without a request (the page's CSP allows no inline script, not links).
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(__('The recovery codes are copied.', 'siteward'));
    } catch {
      setCopied(__('The browser did not allow copying: select the codes, or download them.', 'siteward'));
    }
  };
  return (
    <div className="sw-stack" data-testid="two-factor-codes">
      <p>
        {__(
          'Keep these recovery codes somewhere safe: each logs you in once if you lose your device. They are shown only now.',
          'siteward',
        )}
      </p>
      <ul className="sw-two-factor-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="sw-actions">
        <Button variant="secondary" onClick={() => void copy()} __next40pxDefaultSize>
          {__('Copy', 'siteward')}
        </Button>
        <Button variant="secondary" href={download} download="siteward-recovery-codes.txt" __next40pxDefaultSize>
          {__('Download', 'siteward')}
        </Button>
        <Button variant="primary" onClick={onDone} __next40pxDefaultSize>
          {__('I have saved them', 'siteward')}
        </Button>
      </div>
      {copied !== null && (
        <p role="status" data-testid="two-factor-codes-copied">
          {copied}
        </p>
      )}
    </div>
  );
}

function Enrol({ enrolment, onConfirmed }: { enrolment: TwoFactorEnrolment; onConfirmed: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const { busy, error, onSubmit } = useSubmit(async () => {
    const answer = await api<TwoFactorCodes>(`${P}/confirm`, { method: 'POST', data: { code } });
    onConfirmed(answer.recovery_codes);
  });
  return (
    <form className="sw-stack" onSubmit={onSubmit} data-testid="two-factor-enrol">
      <p>{__('1. Scan this code with an authenticator app (FreeOTP, Aegis, Google Authenticator, 1Password…):', 'siteward')}</p>
      <img
        className="sw-two-factor-qr"
        src={enrolment.qr}
        width={200}
        height={200}
        alt={__('QR code of the two-factor secret', 'siteward')}
      />
      <p>
        {__('Or type this key into the app:', 'siteward')}{' '}
        <code className="sw-break" data-testid="two-factor-secret">
          {enrolment.secret}
        </code>
      </p>
      <FormError error={error} />
      <TextRow
        label={__('2. Enter the 6-digit code the app shows', 'siteward')}
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={setCode}
        required
      />
      <div className="sw-actions">
        <Button variant="primary" type="submit" isBusy={busy} disabled={busy} __next40pxDefaultSize>
          {__('Turn on two-factor', 'siteward')}
        </Button>
      </div>
    </form>
  );
}

function TurnOff({ onOff }: { onOff: () => void }) {
  const [password, setPassword] = useState('');
  const { busy, error, onSubmit } = useSubmit(async () => {
    await api<TwoFactorStatus>(P, { method: 'DELETE', data: { password } });
    onOff();
  });
  return (
    <form className="sw-stack" onSubmit={onSubmit}>
      <FormError error={error} />
      <TextRow
        label={__('Your password, to turn two-factor off', 'siteward')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        required
      />
      <div className="sw-actions">
        <Button variant="secondary" isDestructive type="submit" isBusy={busy} disabled={busy} __next40pxDefaultSize>
          {__('Turn off two-factor', 'siteward')}
        </Button>
      </div>
    </form>
  );
}

export function TwoFactorScreen() {
  const status = useRest<TwoFactorStatus>(P);
  const { notify } = useNotify();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      notify({ status: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  const start = () =>
    run(async () => {
      setEnrolment(await api<TwoFactorEnrolment>(`${P}/enrol`, { method: 'POST' }));
    });
  const regenerate = () =>
    run(async () => {
      setCodes((await api<TwoFactorCodes>(`${P}/recovery-codes`, { method: 'POST' })).recovery_codes);
    });

  return (
    <Loaded load={status} loading={__('Loading two-factor authentication…', 'siteward')}>
      {(s) => (
        <div className="sw-stack" data-testid="two-factor-screen">
          <Card className="sw-card">
            <CardHeader>
              <h2 className="sw-card-title">{__('Your account', 'siteward')}</h2>
            </CardHeader>
            <CardBody>
              {codes ? (
                <RecoveryCodes
                  codes={codes}
                  onDone={() => {
                    setCodes(null);
                    setEnrolment(null);
                    status.reload();
                  }}
                />
              ) : enrolment ? (
                <Enrol
                  enrolment={enrolment}
                  onConfirmed={(confirmed) => {
                    setCodes(confirmed);
                    // Two-factor is on from here: fetch the status while the codes are read, so the screen
                    // that follows them says "on" at once rather than the status from before.
                    status.reload();
                  }}
                />
              ) : (
                <Status
                  status={s}
                  busy={busy}
                  onStart={start}
                  onRegenerate={regenerate}
                  onOff={() => {
                    notify({ status: 'success', text: __('Two-factor authentication is off.', 'siteward') });
                    status.reload();
                  }}
                />
              )}
              <p className="sw-help">
                {__(
                  'Application passwords are not asked for a second factor (as in WordPress with its Two-Factor plugin): revoke any you no longer need.',
                  'siteward',
                )}
              </p>
            </CardBody>
          </Card>
        </div>
      )}
    </Loaded>
  );
}

/** On: recovery codes left, new ones, turning off; off: setting it up. */
function Status({
  status: s,
  busy,
  onStart,
  onRegenerate,
  onOff,
}: {
  status: TwoFactorStatus;
  busy: boolean;
  onStart: () => void;
  onRegenerate: () => void;
  onOff: () => void;
}) {
  let body;
  if (s.enabled) {
    body = (
      <div className="sw-stack">
        <p className="sw-status-up" data-testid="two-factor-state">
          {__('Two-factor authentication is on: the login form asks for a code after your password.', 'siteward')}
        </p>
        <p>
          {/* translators: %d: how many unused recovery codes are left. */}
          {sprintf(_n('%d recovery code left.', '%d recovery codes left.', s.recovery_codes_left, 'siteward'), s.recovery_codes_left)}{' '}
          <Button variant="link" onClick={onRegenerate} disabled={busy}>
            {__('Make new recovery codes', 'siteward')}
          </Button>
        </p>
        <TurnOff onOff={onOff} />
      </div>
    );
  } else {
    body = (
      <div className="sw-stack">
        <p data-testid="two-factor-state">{__('Two-factor authentication is off: your password alone logs you in.', 'siteward')}</p>
        {s.required && (
          <Notice status="warning" isDismissible={false}>
            {__('Your role must use two-factor authentication.', 'siteward')}
          </Notice>
        )}
        <div className="sw-actions">
          <Button variant="primary" onClick={onStart} isBusy={busy} disabled={busy} __next40pxDefaultSize>
            {__('Set up two-factor', 'siteward')}
          </Button>
        </div>
      </div>
    );
  }

  return body;
}
