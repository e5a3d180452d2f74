import { CONFETTI, confettiPieces } from './constants';

describe('how much confetti a screen gets (docs/PRODUCT.md §9)', () => {
  it('is the spec\'s 800 pieces on a screen of 1280 × 720 or more', () => {
    expect(confettiPieces(1280, 720)).toBe(CONFETTI.numberOfPieces);
    expect(confettiPieces(1920, 1080)).toBe(800);
    expect(confettiPieces(1366, 768)).toBe(800);
  });

  it('keeps the same density on a smaller screen, and never fewer than 200 pieces', () => {
    expect(confettiPieces(390, 844)).toBe(286);
    expect(confettiPieces(1024, 768)).toBe(683);
    expect(confettiPieces(320, 480)).toBe(200);
  });
});
