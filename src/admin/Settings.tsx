/** Settings: the site-wide setting of the era (holiday snow) and the two resets, each confirmed first. */
import { Button, ToggleControl } from '@wordpress/components';
import { TitledCard } from './ui/TitledCard';
import { __, sprintf } from '@wordpress/i18n';
import { useState } from 'react';
import { api, jp } from './api';
import { ConfirmDialog } from './ConfirmDialog';
import { useInvalidate, useRest } from './data/use-rest';
import { errorText, useConnection, useNotify, useSiteActions } from './site';
import { Loaded } from './ui/Loaded';
import { resetDoneText } from './words';

const SNOW = 'jetpack_holiday_snow_enabled';

export function SettingsScreen() {
  const { notify } = useNotify();
  const { user } = useConnection();
  const settings = useRest<Record<string, unknown>>(jp('settings'));
  const invalidate = useInvalidate();
  const [snow, setSnow] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const mayManage = user.currentUser.permissions.manage_options !== false;

  const toggleSnow = async (on: boolean) => {
    setSnow(on);
    setSaving(true);
    try {
      // The 4.4+ settings write: the setting's own key, whatever option stores it.
      await api(jp('settings'), { method: 'POST', data: { [SNOW]: on } });
      notify({
        status: 'success',
        text: on ? __('Snow falls on the site this season.', 'siteward') : __('No more snow on the site.', 'siteward'),
      });
      invalidate(jp('settings'));
    } catch (error) {
      setSnow(!on);
      // translators: %s: why the server refused.
      notify({ status: 'error', text: sprintf(__('The setting was not saved: %s', 'siteward'), errorText(error)) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="sw-stack">
      <TitledCard title={__('Appearance', 'siteward')}>
        <Loaded load={settings} loading={__('Loading settings…', 'siteward')}>
          {(data) => (
            <ToggleControl
              __nextHasNoMarginBottom
              label={__('Show falling snow on the site during the holidays', 'siteward')}
              checked={snow ?? data[SNOW] === true}
              disabled={saving || !mayManage}
              onChange={(on) => void toggleSnow(on)}
            />
          )}
        </Loaded>
      </TitledCard>
      {user.currentUser.permissions.manage_modules !== false && <ResetCard />}
    </div>
  );
}

function ResetCard() {
  const { notify } = useNotify();
  const { refresh, setDismissed, setShowJumpstart } = useSiteActions();
  const { connection } = useConnection();
  const invalidate = useInvalidate();
  const [confirm, setConfirm] = useState<'options' | 'modules' | null>(null);
  const [working, setWorking] = useState(false);
  const reset = async (what: 'options' | 'modules') => {
    setWorking(true);
    try {
      await api<{ message: string }>(jp(`options/${what}`), { method: 'POST', data: { reset: true } });
      if (what === 'options') {
        setDismissed({});
        setShowJumpstart(connection.isActive);
      }
      await refresh();
      // Every answer may have changed (settings, module data): each is asked again when shown.
      invalidate('/');
      notify({ status: 'success', text: resetDoneText(what) });
    } catch (error) {
      // translators: %s: why the server refused.
      notify({ status: 'error', text: sprintf(__('Nothing was reset: %s', 'siteward'), errorText(error)) });
    } finally {
      setWorking(false);
      setConfirm(null);
    }
  };
  return (
    <TitledCard title={__('Reset', 'siteward')}>
      <p>{__('Put modules, or all module settings, back as they were on a new site. The connection is kept.', 'siteward')}</p>
      <div className="sw-actions">
        <Button variant="secondary" onClick={() => setConfirm('modules')} __next40pxDefaultSize>
          {__('Reset modules to default', 'siteward')}
        </Button>
        <Button variant="secondary" isDestructive onClick={() => setConfirm('options')} __next40pxDefaultSize>
          {__('Reset all options', 'siteward')}
        </Button>
      </div>
      {confirm && (
        <ConfirmDialog
          title={confirm === 'options' ? __('Reset all options?', 'siteward') : __('Reset modules?', 'siteward')}
          confirmLabel={confirm === 'options' ? __('Reset all options', 'siteward') : __('Reset modules', 'siteward')}
          destructive={confirm === 'options'}
          busy={working}
          onConfirm={() => void reset(confirm)}
          onCancel={() => setConfirm(null)}
        >
          <p>
            {confirm === 'options'
              ? __(
                  'Every module setting, dismissed notice and sharing choice is erased, and the default modules are turned on again. This cannot be undone.',
                  'siteward',
                )
              : __('Only the default modules stay on; the others are turned off. Their settings are kept.', 'siteward')}
          </p>
        </ConfirmDialog>
      )}
    </TitledCard>
  );
}
