import { useEffect, useRef, useState } from 'react';
import { ILLUSTRATION_SRC } from '../constants';

/**
 * The illustration beside the greeting (docs/PRODUCT.md §2): an animated SVG. The browser keeps drawing an
 * animated image as long as it is in the page, every frame, even scrolled a few screens away (a tenth of the
 * main thread's time while a phone scrolled the list, docs/PERFORMANCE.md "Smooth on a phone"). So the image
 * is in the page only while its box is in view; the box keeps its size, so nothing moves when it comes and goes.
 */
export function Illustration() {
  const box = useRef<HTMLSpanElement>(null);
  const [inView, setInView] = useState(true);
  useEffect(() => {
    const element = box.current;
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(([entry]) => setInView(entry?.isIntersecting ?? true));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <span ref={box} className="tasks-page__illustration">
      {inView && <img src={ILLUSTRATION_SRC} alt="" width={240} height={180} />}
    </span>
  );
}
