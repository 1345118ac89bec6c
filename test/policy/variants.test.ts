import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_VARIANT_RULES,
  deviceClass,
  devicePlatform,
  fileExtension,
  imageFormatVariant,
  type DeviceClass,
  type ImageFormatVariant,
} from '../../src/policy/variants.js';

const FC_OPTIONS = { numRuns: 300, seed: 20240405 };

// Any UTF-16 code unit (lone surrogates and controls included) mixed with tokens that make
// near-valid inputs likely. Cheaper to set up than fast-check's 'binary' unit tables.
const arbitraryText = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    fc.constantFrom(...['image/avif', 'q=0', ';', ',', '*/*', 'Mobile', 'iPad', 'Android ', '"', ' ']),
  ),
  maxLength: 40,
});

// Real image-request Accept headers, as the browsers send them for <img>.
const ACCEPT = {
  chrome2024: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
  firefox: 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5',
  firefoxOld: 'image/webp,*/*',
  safari16: 'image/webp,image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5',
  safari17: 'image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5',
  curl: '*/*',
  documentChrome: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
};

const UA = {
  iPhoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  iPad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:126.0) Gecko/20100101 Firefox/126.0',
  curl: 'curl/8.7.1',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  smartTv:
    'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36',
};

describe('imageFormatVariant (spec 4.4)', () => {
  it.each<[string, string | undefined, ImageFormatVariant]>([
    ['Chrome 2024 image Accept lists image/avif', ACCEPT.chrome2024, 'avif-support'],
    ['Firefox image Accept lists image/avif', ACCEPT.firefox, 'avif-support'],
    ['Safari 17 lists image/avif after image/webp', ACCEPT.safari17, 'avif-support'],
    ['Chrome navigation Accept lists image/avif', ACCEPT.documentChrome, 'avif-support'],
    ['Safari 16 (no avif) sends image/* only', ACCEPT.safari16, 'no-avif-support'],
    ['old Firefox: image/webp,*/*', ACCEPT.firefoxOld, 'no-avif-support'],
    ['curl */* is a wildcard, not an explicit avif', ACCEPT.curl, 'no-avif-support'],
    ['image/* alone does not count', 'image/*', 'no-avif-support'],
    ['image/avif;q=0 is an explicit refusal (RFC 9110 §12.4.2)', 'image/avif;q=0, image/*', 'no-avif-support'],
    ['image/avif; q=0.000 is a refusal', 'image/avif; q=0.000, image/webp', 'no-avif-support'],
    ['low but non-zero q still counts', 'image/webp, image/avif;q=0.1', 'avif-support'],
    ['media types are case-insensitive (RFC 9110 §8.3.1)', 'IMAGE/AVIF', 'avif-support'],
    ['image/avif with a parameter', 'image/avif;profile=x, image/*', 'avif-support'],
    ['image/avif-sequence is not image/avif', 'image/avif-sequence', 'no-avif-support'],
    ['missing Accept', undefined, 'no-avif-support'],
    ['empty Accept', '', 'no-avif-support'],
    ['garbage Accept', ';;,,"image/avif', 'no-avif-support'],
    ['unparsable q value', 'image/avif;q=abc', 'no-avif-support'],
  ])('spec 4.4: %s', (_name, accept, expected) => {
    expect(imageFormatVariant(accept)).toBe(expected);
  });

  it('spec 4.4: never throws on arbitrary Accept values', () => {
    fc.assert(
      fc.property(arbitraryText, (accept) => {
        const variant = imageFormatVariant(accept);
        expect(['avif-support', 'no-avif-support']).toContain(variant);
      }),
      FC_OPTIONS,
    );
  });
});

describe('deviceClass (spec 4.5)', () => {
  it.each<[string, string | undefined, DeviceClass]>([
    ['iPhone Safari is mobile', UA.iPhoneSafari, 'mobile'],
    ['Android Chrome phone is mobile', UA.androidChrome, 'mobile'],
    ['iPad is a tablet → desktop by default (cdnsim reading)', UA.iPad, 'desktop'],
    ['Android tablet → desktop by default (cdnsim reading)', UA.androidTablet, 'desktop'],
    ['Chrome on Windows is desktop', UA.chromeWindows, 'desktop'],
    ['Firefox on macOS is desktop', UA.firefoxMac, 'desktop'],
    ['curl (unrecognised) → desktop', UA.curl, 'desktop'],
    ['Googlebot (bot) → desktop', UA.googlebot, 'desktop'],
    ['smart TV → desktop', UA.smartTv, 'desktop'],
    ['empty User-Agent → desktop', '', 'desktop'],
    ['blank User-Agent → desktop', '   ', 'desktop'],
    ['missing User-Agent → desktop', undefined, 'desktop'],
  ])('spec 4.5: %s', (_name, userAgent, expected) => {
    expect(deviceClass(userAgent)).toBe(expected);
  });

  it('spec 4.5: tabletAs moves tablets, and only tablets', () => {
    expect(deviceClass(UA.iPad, 'mobile')).toBe('mobile');
    expect(deviceClass(UA.androidTablet, 'mobile')).toBe('mobile');
    expect(deviceClass(UA.chromeWindows, 'mobile')).toBe('desktop');
    expect(deviceClass(UA.iPhoneSafari, 'desktop')).toBe('mobile');
  });

  it('spec 4.5: devicePlatform reports bowser platform types', () => {
    expect(devicePlatform(UA.iPhoneSafari)).toBe('mobile');
    expect(devicePlatform(UA.iPad)).toBe('tablet');
    expect(devicePlatform(UA.chromeWindows)).toBe('desktop');
    expect(devicePlatform(UA.googlebot)).toBe('bot');
    expect(devicePlatform(UA.curl)).toBe('');
    expect(devicePlatform(undefined)).toBe('');
  });

  it('spec 4.5: never throws on arbitrary User-Agent values', () => {
    fc.assert(
      fc.property(arbitraryText, (userAgent) => {
        expect(['mobile', 'desktop']).toContain(deviceClass(userAgent));
      }),
      { ...FC_OPTIONS, numRuns: 150 },
    );
  });
});

describe('fileExtension', () => {
  it.each<[string, string]>([
    ['/img/photo.jpg', 'jpg'],
    ['/img/PHOTO.JPEG', 'jpeg'],
    ['/a/b.tar.gz', 'gz'],
    ['/dir.d/file', ''],
    ['/.htaccess', ''],
    ['/file.', ''],
    ['/', ''],
    ['', ''],
    ['/img/photo.png?w=100', 'png'],
    ['/img/photo.webp#x', 'webp'],
    ['/images/photo.jpg/', ''],
    ['style.css', 'css'],
  ])('%s → %s', (path, expected) => {
    expect(fileExtension(path)).toBe(expected);
  });
});

describe('DEFAULT_VARIANT_RULES', () => {
  it('spec 4.4: raster images get the image-format variant, svg does not (cdnsim reading)', () => {
    expect([...DEFAULT_VARIANT_RULES.imageFormat.extensions].sort()).toEqual([
      'avif', 'bmp', 'gif', 'heic', 'jpeg', 'jpg', 'png', 'tif', 'tiff', 'webp',
    ]);
    expect(DEFAULT_VARIANT_RULES.imageFormat.enabled).toBe(true);
  });

  it('spec 4.5: images and CSS get the device variant; tablets default to desktop', () => {
    expect(DEFAULT_VARIANT_RULES.device.extensions).toContain('css');
    expect(DEFAULT_VARIANT_RULES.device.extensions).toContain('jpg');
    expect(DEFAULT_VARIANT_RULES.device.extensions).not.toContain('svg');
    expect(DEFAULT_VARIANT_RULES.device.extensions).not.toContain('js');
    expect(DEFAULT_VARIANT_RULES.device.tabletAs).toBe('desktop');
    expect(DEFAULT_VARIANT_RULES.device.enabled).toBe(true);
  });
});
