#!/usr/bin/env bash
# Regenerates the Task Manager UI sound effects in this folder:
#   success.mp3  – task completed: cheerful rising C-major arpeggio / chime (~0.85 s)
#   deleted.mp3  – task deleted:   soft two-tone descent with a faint whoosh (~0.4 s)
#   added.mp3    – task added:     short light "pop" / blip (~0.2 s)
#
# Requirements: sox and lame on PATH (Debian: apt-get install -y sox lame).
# Output: mono, 44.1 kHz, 80 kbps CBR MP3, peak normalised to -3 dBFS,
# short fades at both ends so playback never clicks.
#
# Idempotent: every run rebuilds the three files from scratch (temp files live
# in a private mktemp directory that is removed on exit). Output is
# byte-for-byte deterministic: sox always runs with -R (fixed random seed), so
# the noise in the "deleted" whoosh and the dither are identical every run.
#
# Usage: ./generate-sounds.sh          (writes into ../public/sounds)
#        ./generate-sounds.sh OUT_DIR  (writes into OUT_DIR)
set -euo pipefail

for tool in sox lame; do
  command -v "$tool" >/dev/null 2>&1 || { echo "error: '$tool' not found (apt-get install -y sox lame)" >&2; exit 1; }
done

OUT_DIR="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../public/sounds" && pwd)}"
mkdir -p "$OUT_DIR"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Always run sox with -R: "use default random numbers" -> reproducible output.
sox() { command sox -R "$@"; }

RATE=44100      # sample rate (Hz)
BITRATE=80      # MP3 bitrate (kbps)
PEAK=-3         # target peak level (dBFS)

# Common sox options for generated audio: mono, 44.1 kHz, 32-bit float WAV
# intermediate files; mixes are scaled down (-v) so nothing clips before the
# final peak normalisation.
SOX_OUT=(-r "$RATE" -c 1 -e floating-point -b 32)

# calc EXPR – tiny float calculator (awk is always available, bc may not be).
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

# bell NAME FREQ LEN DELAY
#   One chime note: a sine fundamental plus a quieter octave and a very quiet
#   twelfth (gives a glassy/bell timbre), a 5 ms attack and a smooth decay over
#   the whole note (two chained linear fades = quadratic curve, so the note
#   rings, then dies away cleanly), then padded with DELAY
#   seconds of silence at the start so notes can be mixed into an arpeggio.
bell() {
  local name=$1 f=$2 len=$3 delay=$4
  sox -n "${SOX_OUT[@]}" "$TMP/$name-1.wav" synth "$len" sine "$f"
  sox -n "${SOX_OUT[@]}" "$TMP/$name-2.wav" synth "$len" sine "$(calc "$f*2")" vol 0.35
  sox -n "${SOX_OUT[@]}" "$TMP/$name-3.wav" synth "$len" sine "$(calc "$f*3")" vol 0.12
  sox -m -v 0.6 "$TMP/$name-1.wav" -v 0.6 "$TMP/$name-2.wav" -v 0.6 "$TMP/$name-3.wav" \
      "${SOX_OUT[@]}" "$TMP/$name.wav" \
      fade q 0.005 "$len" "$(calc "$len-0.005")" \
      fade t 0 "$len" "$len" fade t 0 "$len" "$len" \
      pad "$delay" 0
}

# finish IN OUT_MP3
#   Shared mastering chain: normalise the peak to $PEAK dBFS, add 3 ms / 10 ms
#   safety fades at the edges, convert to 16-bit PCM, then encode with lame
#   (mono, CBR, high-quality algorithm).
finish() {
  local in=$1 out=$2
  sox "$in" -r "$RATE" -c 1 -b 16 "$TMP/final.wav" norm "$PEAK" fade q 0.003 -0 0.01
  lame --quiet -m m -b "$BITRATE" --cbr -q 2 --resample 44.1 "$TMP/final.wav" "$out"
  rm -f "$TMP/final.wav"
}

# ---------------------------------------------------------------------------
# success.mp3 – C5 E5 G5 C6 arpeggio, 90 ms apart, last note rings longest.
# ---------------------------------------------------------------------------
bell s1 523.25 0.40 0.00
bell s2 659.25 0.40 0.09
bell s3 783.99 0.42 0.18
bell s4 1046.50 0.60 0.27
sox -m -v 0.5 "$TMP/s1.wav" -v 0.5 "$TMP/s2.wav" -v 0.5 "$TMP/s3.wav" -v 0.5 "$TMP/s4.wav" "${SOX_OUT[@]}" "$TMP/success-dry.wav" \
    reverb 25 50 40      # small room reverb makes the chime "sparkle"
# trim in a separate pass (trimming right after reverb makes sox warn spuriously)
sox "$TMP/success-dry.wav" "$TMP/success.wav" trim 0 0.85 fade q 0 0.85 0.12
finish "$TMP/success.wav" "$OUT_DIR/success.mp3"

# ---------------------------------------------------------------------------
# deleted.mp3 – two soft tones stepping down (A5 -> D5), each gliding slightly
# downward, over a quiet band-passed noise "whoosh" that sweeps down as it fades.
# ---------------------------------------------------------------------------
sox -n "${SOX_OUT[@]}" "$TMP/d1.wav" synth 0.20 sine 880/800 fade q 0.008 0.20 0.12
sox -n "${SOX_OUT[@]}" "$TMP/d2.wav" synth 0.26 sine 587.33/500 fade q 0.008 0.26 0.20 pad 0.14 0
# whoosh: pink noise, band-limited, fading in then out; two halves with a
# lower band in the second half give a downward sense of motion.
sox -n "${SOX_OUT[@]}" "$TMP/w1.wav" synth 0.20 pinknoise sinc 900-3500 fade q 0.06 0.20 0.06 vol 0.25
sox -n "${SOX_OUT[@]}" "$TMP/w2.wav" synth 0.26 pinknoise sinc 300-1500 fade q 0.04 0.26 0.20 vol 0.25 pad 0.14 0
sox -m -v 0.5 "$TMP/d1.wav" -v 0.45 "$TMP/d2.wav" -v 0.5 "$TMP/w1.wav" -v 0.5 "$TMP/w2.wav" \
    "${SOX_OUT[@]}" "$TMP/deleted.wav" lowpass 5000 trim 0 0.40 fade q 0 0.40 0.08
finish "$TMP/deleted.wav" "$OUT_DIR/deleted.mp3"

# ---------------------------------------------------------------------------
# added.mp3 – quick upward pitch blip (exponential sweep 520 -> 1200 Hz) with
# a 4 ms attack and a percussive decay (three chained linear fade-outs = cubic
# curve: about -12 dB after 40 ms, -35 dB after 100 ms), plus a soft octave
# for a rounder "pop".
# ---------------------------------------------------------------------------
POP_ENV=(fade q 0.004 0.18 0.176 fade t 0 0.18 0.176 fade t 0 0.18 0.176 fade t 0 0.18 0.176)
sox -n "${SOX_OUT[@]}" "$TMP/a1.wav" synth 0.18 sine 520/1200 "${POP_ENV[@]}"
sox -n "${SOX_OUT[@]}" "$TMP/a2.wav" synth 0.18 sine 1040/2400 "${POP_ENV[@]}" vol 0.2
sox -m -v 0.8 "$TMP/a1.wav" -v 0.8 "$TMP/a2.wav" "${SOX_OUT[@]}" "$TMP/added.wav"
finish "$TMP/added.wav" "$OUT_DIR/added.mp3"

echo "wrote: $OUT_DIR/success.mp3 $OUT_DIR/deleted.mp3 $OUT_DIR/added.mp3"
