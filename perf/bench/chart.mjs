// docs/benchmarks.svg: a grouped bar chart of requests per second, one group per list size and connection
// count, one bar per target. Plain SVG written here: no charting service, nothing fetched.

const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#9c755f', '#e15759'];

/** @param {string} text */
const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A round step for about five grid lines up to `max`. @param {number} max */
function tickStep(max) {
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? raw;
}

/**
 * @param {object} chart
 * @param {string} chart.title
 * @param {string} chart.yLabel
 * @param {{ label: string, values: (number | undefined)[] }[]} chart.groups one value per series, in order
 * @param {string[]} chart.series
 * @returns {string}
 */
export function barChartSvg({ title, yLabel, groups, series }) {
  const width = 960;
  const height = 460;
  const margin = { top: 70, right: 20, bottom: 56, left: 70 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const max = Math.max(1, ...groups.flatMap((g) => g.values.filter((v) => v !== undefined)));
  const step = tickStep(max);
  const top = Math.ceil(max / step) * step;
  const y = (/** @type {number} */ v) => margin.top + plotH - (v / top) * plotH;
  const groupW = plotW / groups.length;
  const barW = (groupW * 0.8) / series.length;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="16" font-weight="bold">${escape(title)}</text>`,
  ];
  series.forEach((name, i) => {
    const x = margin.left + (i % 3) * 290;
    const row = 40 + Math.floor(i / 3) * 16;
    parts.push(`<rect x="${x}" y="${row - 10}" width="12" height="12" fill="${COLOURS[i % COLOURS.length]}"/>`);
    parts.push(`<text x="${x + 18}" y="${row}">${escape(name)}</text>`);
  });
  for (let v = 0; v <= top; v += step) {
    parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(v)}" y2="${y(v)}" stroke="#dddddd"/>`);
    parts.push(`<text x="${margin.left - 6}" y="${y(v) + 4}" text-anchor="end">${v.toLocaleString('en-US')}</text>`);
  }
  parts.push(`<text transform="translate(18 ${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escape(yLabel)}</text>`);
  groups.forEach((group, g) => {
    const x0 = margin.left + g * groupW + groupW * 0.1;
    group.values.forEach((value, i) => {
      if (value === undefined) return;
      const x = x0 + i * barW;
      parts.push(`<rect x="${x.toFixed(1)}" y="${y(value).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${(margin.top + plotH - y(value)).toFixed(1)}" fill="${COLOURS[i % COLOURS.length]}"><title>${escape(`${series[i]}, ${group.label}: ${value}`)}</title></rect>`);
      parts.push(`<text x="${(x + barW / 2 - 1).toFixed(1)}" y="${(y(value) - 3).toFixed(1)}" text-anchor="middle" font-size="9">${Math.round(value)}</text>`);
    });
    parts.push(`<text x="${(margin.left + g * groupW + groupW / 2).toFixed(1)}" y="${height - margin.bottom + 18}" text-anchor="middle">${escape(group.label)}</text>`);
  });
  parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${margin.top + plotH}" y2="${margin.top + plotH}" stroke="#333333"/>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
