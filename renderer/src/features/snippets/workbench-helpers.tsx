import { useCallback, useEffect, useRef, useState } from 'react';

// Small helpers of the snippet workbench: toast, debounce, clipboard, token countdown.

export function useToast(): [string | undefined, (msg: string) => void] {
  const [msg, setMsg] = useState<string>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const show = useCallback((m: string) => {
    setMsg(m);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setMsg(undefined), 2600);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [msg, show];
}

export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

export async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
}

export function Countdown({ until, onExpire }: { until: number; onExpire(): void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const left = Math.max(0, Math.round((until - now) / 1000));
  useEffect(() => {
    if (left === 0) onExpire();
  }, [left, onExpire]);
  return (
    <span className="badge badge-warn" data-testid="token-countdown">
      token expires in {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')}
    </span>
  );
}
