import { useEffect, useState } from 'react';

interface Size {
  width: number;
  height: number;
}

const read = (): Size => ({ width: window.innerWidth, height: window.innerHeight });

/** The viewport size, updated on resize (the confetti canvas covers the whole window). */
export function useWindowSize(): Size {
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
}
