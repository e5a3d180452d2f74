import { usePreferences, type Preferences } from '@tm/web-platform';
import { useId } from 'react';

interface SwitchProps {
  label: string;
  description: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** A switch (a checkbox with role="switch"): named by its label, described by its sentence, 44 px tall for touch. */
function Switch({ label, description, checked, onChange }: SwitchProps) {
  const id = useId();
  return (
    <div className="account-switch">
      <div className="account-switch__text">
        <label className="account-switch__label" htmlFor={id}>
          {label}
        </label>
        <p className="account-switch__description" id={`${id}-description`}>
          {description}
        </p>
      </div>
      <input
        className="account-switch__input"
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        aria-describedby={`${id}-description`}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}

const SWITCHES: { key: keyof Preferences; label: string; description: string }[] = [
  { key: 'sounds', label: 'Sounds', description: 'A short sound when you add, complete or delete a task.' },
  {
    key: 'celebrations',
    label: 'Celebrations',
    description: 'Confetti when you complete a task (a still check mark when your device asks for less motion).',
  },
];

/**
 * "Preferences" (docs/PRODUCT.md §10.10): sounds and celebrations, both on until switched off. A choice of
 * this browser (@tm/web-platform preferences: kept on the device, not in the account), in force at once in
 * every tab; nothing is sent.
 */
export function PreferencesForm() {
  const [preferences, save] = usePreferences();
  return (
    <div className="account-switches">
      {SWITCHES.map(({ key, label, description }) => (
        <Switch key={key} label={label} description={description} checked={preferences[key]} onChange={(on) => save({ [key]: on })} />
      ))}
    </div>
  );
}
