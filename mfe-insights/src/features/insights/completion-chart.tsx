import { useId } from 'react';
import type { DayCount } from './insights';

const WIDTH = 560;
const HEIGHT = 180;
const TOP = 14;

/** "Mon 3 Nov": a day of the chart in words (the person's locale would vary the tests; English like the app). */
function dayLabel(date: string, style: 'short' | 'long'): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const at = new Date(year, month - 1, day);
  return at.toLocaleDateString('en-GB', style === 'long' ? { weekday: 'long', day: 'numeric', month: 'long' } : { day: 'numeric', month: 'short' });
}

/**
 * Tasks completed per day, as bars drawn in SVG (no charting library: 28 bars need none, and the remote's
 * first load stays small). The picture is for the eyes only; screen readers get the same figures as a table
 * (visually hidden), with a caption that sums them up. Colours come from the design tokens, so both themes work.
 */
export function CompletionChart({ days }: { days: readonly DayCount[] }) {
  const captionId = useId();
  const most = Math.max(1, ...days.map((day) => day.completed));
  const total = days.reduce((sum, day) => sum + day.completed, 0);
  const slot = WIDTH / days.length;
  const caption = `Tasks completed per day, last ${days.length} days: ${total} in all, at most ${days.length ? Math.max(...days.map((day) => day.completed)) : 0} in a day.`;
  return (
    <figure className="insights-chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className="insights-chart__caption">
        Completed per day, last 4 weeks <span className="insights-chart__total">({total} in all)</span>
      </figcaption>
      {/* Bars only in the SVG, stretched to the box; the words are HTML, so they keep their size on a phone. */}
      <div className="insights-chart__plot">
        <svg className="insights-chart__svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false" preserveAspectRatio="none">
          <line className="insights-chart__baseline" x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} />
          {days.map((day, index) => {
            const height = Math.max((day.completed / most) * (HEIGHT - TOP), 2);
            return (
              <rect
                key={day.date}
                className={day.completed > 0 ? 'insights-chart__bar' : 'insights-chart__bar insights-chart__bar--none'}
                x={index * slot + slot * 0.15}
                y={HEIGHT - height}
                width={slot * 0.7}
                height={height}
              >
                <title>{`${dayLabel(day.date, 'long')}: ${day.completed}`}</title>
              </rect>
            );
          })}
        </svg>
        <span className="insights-chart__most" aria-hidden="true">
          {most}
        </span>
      </div>
      <div className="insights-chart__days" aria-hidden="true">
        {days.map((day, index) =>
          index % 7 === 0 || index === days.length - 1 ? (
            <span key={day.date} style={{ left: `${((index + 0.5) / days.length) * 100}%` }}>
              {index === days.length - 1 ? 'Today' : dayLabel(day.date, 'short')}
            </span>
          ) : null,
        )}
      </div>
      {/* The wrapper hides it: a table keeps its content's width whatever width it is given. */}
      <div className="visually-hidden">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Tasks completed</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{dayLabel(day.date, 'long')}</th>
              <td>{day.completed}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </figure>
  );
}
