import type { ReactNode } from 'react';

/**
 * Flat 64×64 pictures of the loading-screen characters, drawn inline so they show without an emoji font.
 * Each shape has a bright fill that reads on the dark theme and a mid-tone outline that reads
 * on the light one. Decorative: the emoji next to it carries the meaning for assistive tech.
 */
function Picture({ children }: { children: ReactNode }) {
  return (
    <svg
      className="loading-screen__svg"
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 64 64"
      width="64"
      height="64"
      aria-hidden="true"
      focusable="false"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

/** 🍥 Naruto: a white fish cake with a pink swirl. */
export function FishCake() {
  return (
    <Picture>
      <path
        d="M32 7.5A6.2 6.2 0 0 1 42.6 9.9A6.2 6.2 0 0 1 51.2 16.7A6.2 6.2 0 0 1 55.9 26.5A6.2 6.2 0 0 1 55.9 37.5A6.2 6.2 0 0 1 51.2 47.3A6.2 6.2 0 0 1 42.6 54.1A6.2 6.2 0 0 1 32 56.5A6.2 6.2 0 0 1 21.4 54.1A6.2 6.2 0 0 1 12.8 47.3A6.2 6.2 0 0 1 8.1 37.5A6.2 6.2 0 0 1 8.1 26.5A6.2 6.2 0 0 1 12.8 16.7A6.2 6.2 0 0 1 21.4 9.9A6.2 6.2 0 0 1 32 7.5Z"
        fill="#ffffff"
        stroke="#7c8499"
        strokeWidth="2.5"
      />
      <circle cx="32" cy="32" r="19" fill="none" stroke="#e5e7ef" strokeWidth="1.5" />
      <path
        d="M32 32a2 2 0 0 1 4 0a4 4 0 0 1-8 0a6 6 0 0 1 12 0a8 8 0 0 1-16 0a10 10 0 0 1 20 0"
        fill="none"
        stroke="#ec4899"
        strokeWidth="3.5"
      />
    </Picture>
  );
}

/** 👒 Luffy: a straw hat with a red band. */
export function StrawHat() {
  return (
    <Picture>
      <ellipse cx="32" cy="42" rx="29" ry="10" fill="#f2c14e" stroke="#a16207" strokeWidth="2.5" />
      <path d="M15 41c0-15 7-24 17-24s17 9 17 24c-5 3-29 3-34 0z" fill="#fcd86b" stroke="#a16207" strokeWidth="2.5" />
      <path d="M15.6 33.5c5 3 27.8 3 32.8 0L49 41c-5 3-29 3-34 0z" fill="#dc2626" stroke="#a16207" strokeWidth="2" />
      <path d="M25 22c-2 3-3 6-3.4 9M39 22c2 3 3 6 3.4 9M10 44c4 2 9 3.5 14 4M54 44c-4 2-9 3.5-14 4" fill="none" stroke="#c9971c" strokeWidth="1.5" />
    </Picture>
  );
}

/** ⚡ Pikachu: a yellow lightning bolt. */
export function LightningBolt() {
  return (
    <Picture>
      <path d="M39 4L13 36h16l-5 24 27-34H35l8-22z" fill="#facc15" stroke="#a16207" strokeWidth="2.5" />
      <path d="M37.5 9L21 31" fill="none" stroke="#fef08a" strokeWidth="2.5" />
    </Picture>
  );
}

/** 🐉 Goku: a green dragon head with an orange mane. */
export function DragonHead() {
  return (
    <Picture>
      <path d="M22 18l-12-8 6 12-10 2 11 6-9 6 12 2-6 10 12-4 2 10 6-12z" fill="#f97316" stroke="#9a3412" strokeWidth="2" />
      <path d="M26 20l-6-14 12 10M32 18l4-13 4 15" fill="#fde68a" stroke="#a16207" strokeWidth="2" />
      <path
        d="M20 28c0-7 6-11 13-11 6 0 9 3 12 6l12 3c4 1 5 4 4 7l-1 3-14 1 10 4c0 4-4 6-10 5-5 0-9-2-11-4-2 6-6 12-9 13-5-4-6-17-6-27z"
        fill="#22c55e"
        stroke="#166534"
        strokeWidth="2.5"
      />
      <path d="M45 40l2 3 2-3M51 40l1.5 3 1.5-3" fill="#ffffff" stroke="#166534" strokeWidth="1" />
      <ellipse cx="35" cy="25" rx="4" ry="3" fill="#ffffff" stroke="#166534" strokeWidth="1.5" />
      <circle cx="36" cy="25" r="1.6" fill="#b91c1c" />
      <circle cx="56" cy="29" r="1.2" fill="#166534" />
      <path d="M57 36c4 1 5 5 2 9s-2 8 3 10M30 20c3-2 7-2 10 0" fill="none" stroke="#f97316" strokeWidth="2" />
    </Picture>
  );
}

/** 🗡️ Tanjiro: a katana. */
export function Katana() {
  return (
    <Picture>
      <g transform="rotate(45 32 32)">
        <path d="M29 -5c2-3 4-3 6 0v38h-6z" fill="#e2e8f0" stroke="#475569" strokeWidth="2" />
        <path d="M32.5 -2v33" fill="none" stroke="#94a3b8" strokeWidth="1.5" />
        <ellipse cx="32" cy="35" rx="9" ry="3" fill="#eab308" stroke="#854d0e" strokeWidth="2" />
        <rect x="28.5" y="38" width="7" height="28" rx="2" fill="#15803d" stroke="#14532d" strokeWidth="2" />
        <path d="M29 43l6 5-6 5 6 5-6 5" fill="none" stroke="#111827" strokeWidth="1.5" />
      </g>
    </Picture>
  );
}

/** ⚗️ Edward: an alchemy flask with a red potion. */
export function AlchemyFlask() {
  return (
    <Picture>
      <path d="M33 13l20 17" fill="none" stroke="#475569" strokeWidth="6" />
      <path d="M33 13l20 17" fill="none" stroke="#dbeafe" strokeWidth="2.5" />
      <path d="M27 6h10v17a18 18 0 1 1-10 0z" fill="#dbeafe" stroke="#475569" strokeWidth="2.5" />
      <path d="M14.2 38A18 18 0 1 0 49.8 38z" fill="#dc2626" />
      <path d="M27 6h10v17a18 18 0 1 1-10 0z" fill="none" stroke="#475569" strokeWidth="2.5" />
      <rect x="24" y="3" width="16" height="5" rx="2" fill="#94a3b8" stroke="#475569" strokeWidth="2" />
      <circle cx="28" cy="45" r="2" fill="#fecaca" />
      <circle cx="36" cy="49" r="1.5" fill="#fecaca" />
      <circle cx="34" cy="31" r="1.5" fill="#93c5fd" />
      <path d="M20 34a13 13 0 0 1 4-6" fill="none" stroke="#ffffff" strokeWidth="2" />
    </Picture>
  );
}
