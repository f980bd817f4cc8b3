import { describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { isLoopbackHost, parseEndpoint } from '../../electron/main/services/net/endpoints';

describe('parseEndpoint', () => {
  // Every spelling of this machine is loopback.
  it.each([
    ['http://localhost:11434', 'http://localhost:11434'],
    ['http://localhost.:11434', 'http://localhost.:11434'],
    ['http://LOCALHOST:1', 'http://localhost:1'],
    ['http://app.localhost:1', 'http://app.localhost:1'],
    ['http://127.0.0.1:11434', 'http://127.0.0.1:11434'],
    ['http://127.1:80', 'http://127.0.0.1'],
    ['http://127.255.0.9', 'http://127.255.0.9'],
    ['http://0x7f.1', 'http://127.0.0.1'],
    ['http://2130706433', 'http://127.0.0.1'],
    ['http://[::1]:11434', 'http://[::1]:11434'],
    ['http://[0:0:0:0:0:0:0:1]', 'http://[::1]'],
    ['http://[::ffff:127.0.0.1]:8080', 'http://[::ffff:7f00:1]:8080'],
    ['http://[::ffff:7f00:1]', 'http://[::ffff:7f00:1]'],
  ])('%s is loopback', (raw, origin) => {
    const e = parseEndpoint(raw);
    expect(e.loopback).toBe(true);
    expect(e.origin).toBe(origin);
  });

  it.each([
    'https://huggingface.co',
    'https://hf-mirror.example/',
    'http://10.0.0.5:11434',
    'http://192.168.1.20:11434',
    'http://[2001:db8::1]',
    'http://128.0.0.1',
    'https://localhost.example.com',
  ])('%s is a remote host', (raw) => {
    expect(parseEndpoint(raw).loopback).toBe(false);
  });

  // Link-local, metadata and unspecified addresses, in any form, are refused as invalid input.
  it.each([
    'http://169.254.169.254/latest/meta-data',
    'http://169.254.1.1',
    'http://0xa9fea9fe',
    'http://2852039166',
    'http://[::ffff:169.254.169.254]',
    'http://[::ffff:a9fe:a9fe]',
    'http://[64:ff9b::169.254.169.254]',
    'http://[fe80::1]',
    'http://[febf::1]',
    'http://[fd00:ec2::254]',
    'http://metadata.google.internal',
    'http://metadata.google.internal.',
    'http://100.100.100.200',
    'http://0.0.0.0:11434',
    'http://0:11434',
    'http://[::]:11434',
    'http://[::ffff:0.0.0.0]',
    'http://0.1.2.3',
  ])('%s is refused', (raw) => {
    const err = (() => {
      try {
        parseEndpoint(raw);
      } catch (e) {
        return e;
      }
    })() as AppError;
    expect(err, raw).toBeInstanceOf(AppError);
    expect(err.code).toBe('invalid_input');
    expect(err.message).toMatch(/refused/);
  });

  it.each([
    '',
    'not a url',
    'http://',
    'http://exa mple.com',
    'ftp://example.com',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'http://user:pass@example.com',
    'http://example.com/?q=1',
    'http://[::1',
    'http://256.1.1.1',
    'x'.repeat(3000),
  ])('%j is invalid_input, never internal', (raw) => {
    expect(() => parseEndpoint(raw)).toThrow(AppError);
    try {
      parseEndpoint(raw);
    } catch (e) {
      expect((e as AppError).code).toBe('invalid_input');
    }
  });

  it('keeps the path without trailing slashes', () => {
    expect(parseEndpoint('https://Example.com/api/v1//').href).toBe('https://example.com/api/v1');
  });

  it('isLoopbackHost reads brackets and trailing dots', () => {
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('localhost.')).toBe(true);
    expect(isLoopbackHost('[::ffff:7f00:1]')).toBe(true);
    expect(isLoopbackHost('example.com')).toBe(false);
  });
});
