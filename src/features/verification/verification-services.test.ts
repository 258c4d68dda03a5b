import { describe, expect, it } from 'vitest';
import {
  readVerificationCodes,
  validateVerificationCode,
  verificationMetaTags,
  verificationServicesAnswer,
  type VerificationCodes,
} from './verification-services.js';

const codes = (partial: Partial<VerificationCodes>): VerificationCodes => ({ google: '', bing: '', pinterest: '', ...partial });

describe('verification codes', () => {
  it.each(['abc123', 'A-b_C', 'x', ''])('accepts %j', (value) => {
    expect(validateVerificationCode('google', value)).toEqual({ ok: true, value });
  });

  it.each(['has space', '<script>', 'a.b', 'é', 42, null, ['a']])('refuses %j with the reference message', (value) => {
    expect(validateVerificationCode('bing', value)).toEqual({ ok: false, message: 'bing must be an alphanumeric string.' });
  });

  it('reads the stored option defensively', () => {
    expect(readVerificationCodes({ google: 'g1', bing: 7, extra: 'x' })).toEqual({ google: 'g1', bing: '', pinterest: '' });
    expect(readVerificationCodes(null)).toEqual({ google: '', bing: '', pinterest: '' });
    expect(readVerificationCodes(['g'])).toEqual({ google: '', bing: '', pinterest: '' });
  });
});

describe('verification meta tags', () => {
  it('prints one tag per service with a code, under each service’s name', () => {
    expect(verificationMetaTags(codes({ google: 'g-1', bing: 'B_2', pinterest: 'p3' }))).toEqual([
      '<meta name="google-site-verification" content="g-1" />',
      '<meta name="msvalidate.01" content="B_2" />',
      '<meta name="p:domain_verify" content="p3" />',
    ]);
  });

  it('prints nothing without codes', () => {
    expect(verificationMetaTags(codes({}))).toEqual([]);
  });

  it('escapes the code', () => {
    expect(verificationMetaTags(codes({ bing: '"><script>&\'' }))).toEqual([
      '<meta name="msvalidate.01" content="&quot;&gt;&lt;script&gt;&amp;&#039;" />',
    ]);
  });
});

describe('verification services answer', () => {
  it('names one service', () => {
    expect(verificationServicesAnswer(codes({ google: 'g' }))).toEqual({
      kind: 'verified',
      status: 200,
      body: { code: 'success', message: 'Your site is verified with Google.', services: ['Google'] },
    });
  });

  it('joins two services with "and"', () => {
    const answer = verificationServicesAnswer(codes({ google: 'g', pinterest: 'p' }));
    expect(answer).toMatchObject({
      body: { message: 'Your site is verified with Google and Pinterest.', services: ['Google', 'Pinterest'] },
    });
  });

  it('lists three services with a comma and "and"', () => {
    const answer = verificationServicesAnswer(codes({ google: 'g', bing: 'b', pinterest: 'p' }));
    expect(answer).toMatchObject({
      body: { message: 'Your site is verified with Google, Bing and Pinterest.', services: ['Google', 'Bing', 'Pinterest'] },
    });
  });

  it('is empty without codes', () => {
    expect(verificationServicesAnswer(codes({}))).toEqual({ kind: 'empty' });
  });
});
