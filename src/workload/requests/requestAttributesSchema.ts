import { z } from 'zod';
import { quantity } from '../../quantitySchema.js';
import { REGIONS, type Region } from '../../topology/regions.js';
import { COUNT_EXPECTED, DURATION_EXPECTED, FRACTION_EXPECTED, SIZE_EXPECTED, parseCount, parseDuration, parseFraction, parseSize } from '../../units.js';
import { DEFAULT_CLIENTS_PER_GROUP, DEFAULT_RECENT_OBJECTS, DEFAULT_REPEAT_SHARE, DEFAULT_REVISIT_SHARE } from './clientPopulation.js';
import { DEFAULT_AVIF_SHARE, DEFAULT_AVIF_SIZE_SHARE, DEFAULT_QUERY_REORDER_SHARE, type RequestAttributeSpec } from './requestAttributes.js';
import { DEFAULT_MEAN_WATCH_SHARE, DEFAULT_MEDIA_MIN_BYTES, DEFAULT_SEEK_PROBABILITY, DEFAULT_WINDOW_BYTES } from './seekBehaviour.js';

/**
 * The scenario's `clients` section: what the requests of each region's clients look like
 * (variant inputs, revisits, media viewing). Mobile shares come from the topology
 * (topology.clients.mobileShare, StatCounter 2024); `mobileShare` here overrides regions one
 * by one. Strict objects, every default filled, quantities in base units after parsing.
 *
 * ```yaml
 * clients:
 *   avifShare: 92%
 *   avifSizeShare: 10%       # an AVIF image's bytes, as a share of the JPEG's
 *   queryReorderShare: 10%
 *   perRegion: 100k          # distinct clients per region
 *   revisitShare: 40%
 *   repeatShare: 30%
 *   media: { windowBytes: 4MB, seekProbability: 5%, meanWatchShare: 40% }
 * ```
 */

/**
 * Most clients a region may keep: each costs about 90 bytes with 8 recent objects (ring,
 * device, media session), so 5 regions × 1 M clients stay under 450 MB.
 */
export const MAX_CLIENTS_PER_REGION = 1_000_000;
/** Longest ring of recent objects per client (4 bytes each per client). */
export const MAX_RECENT_OBJECTS_PER_CLIENT = 64;

const fraction = (description: string) => quantity(parseFraction, FRACTION_EXPECTED, description);
const size = (description: string) => quantity(parseSize, SIZE_EXPECTED, description);

/**
 * Playback rate the default window interval assumes: 5 Mbit/s, about a 1080p stream (a
 * cdnsim choice; a player fetches the next window as the last one plays out).
 */
export const DEFAULT_PLAYBACK_BITS_PER_SECOND = 5_000_000;

const mediaSection = z
  .strictObject({
    windowBytes: size('bytes a player asks for per range request (aligned windows from byte 0)')
      .refine((bytes) => bytes >= 1, { error: 'expected a window of at least 1 byte' })
      .default(DEFAULT_WINDOW_BYTES),
    seekProbability: fraction('probability that a later request of a viewing session jumps to a random other window (seek/scrub)').default(DEFAULT_SEEK_PROBABILITY),
    meanWatchShare: fraction('mean share of a media object a viewer watches before stopping (capped exponential, see seekBehaviour.ts)')
      .refine((share) => share > 0, { error: 'expected a mean watch share above 0%' })
      .default(DEFAULT_MEAN_WATCH_SHARE),
    minSize: size('objects at least this large, of a class with rangeRequests, are read in viewing sessions of range requests (spec 4.8); smaller ones are fetched whole')
      .refine((bytes) => bytes >= 1, { error: 'expected a size of at least 1 byte' })
      .default(DEFAULT_MEDIA_MIN_BYTES),
    windowInterval: quantity((input: unknown) => parseDuration(input), DURATION_EXPECTED, "time between a session's window requests (the player's pace); default: a window at 5 Mbit/s")
      .refine((ms) => ms > 0, { error: 'expected a duration above 0' })
      .optional(),
  })
  .transform((media) => ({
    windowBytes: media.windowBytes,
    seekProbability: media.seekProbability,
    meanWatchShare: media.meanWatchShare,
    minBytes: media.minSize,
    windowIntervalMs: media.windowInterval ?? (media.windowBytes * 8 * 1000) / DEFAULT_PLAYBACK_BITS_PER_SECOND,
  }));


const mobileShareOverrides = z
  .strictObject(
    Object.fromEntries(REGIONS.map((region) => [region, fraction(`share of mobile clients in ${region}`).optional()])) as Record<
      Region,
      z.ZodOptional<ReturnType<typeof fraction>>
    >,
  )
  .transform((given) => {
    const overrides: Partial<Record<Region, number>> = {};
    for (const region of REGIONS) if (given[region] !== undefined) overrides[region] = given[region];
    return overrides;
  });

export const requestAttributesSection = z
  .strictObject({
    avifShare: fraction('share of clients whose browser accepts AVIF (spec 4.4); default about 92 % (caniuse/StatCounter 2025, approximate)').default(DEFAULT_AVIF_SHARE),
    avifSizeShare: fraction(
      "size of an image's AVIF variant as a share of the image's own bytes (spec 4.4: AVIF is stated as about 90 % smaller than JPEG, so 10 %); applies to whole-image requests of the avif-support variant, not to range requests",
    )
      .refine((share) => share > 0, { error: 'expected a share above 0% (an AVIF image has a body)' })
      .default(DEFAULT_AVIF_SIZE_SHARE),
    queryReorderShare: fraction(
      "share of the clients' query requests (classes with `queries`) sent with their parameters in the other order: one key at the CDN, which sorts them (spec 4.3.1), but an entry of its own in the browser cache, keyed by the exact URL; replaces the classes' `queries.reordered` for these clients",
    ).default(DEFAULT_QUERY_REORDER_SHARE),
    perRegion: quantity(parseCount, COUNT_EXPECTED, 'distinct clients per region (100k): the population returning clients are drawn from')
      .refine((n) => n >= 1 && n <= MAX_CLIENTS_PER_REGION, { error: `expected from 1 to ${MAX_CLIENTS_PER_REGION} clients per region (each costs about 90 bytes)` })
      .default(DEFAULT_CLIENTS_PER_GROUP),
    revisitShare: fraction('share of requests from a returning client (its browser cache may answer, spec 4.9)').default(DEFAULT_REVISIT_SHARE),
    repeatShare: fraction("share of a returning client's requests that re-ask one of its recent objects").default(DEFAULT_REPEAT_SHARE),
    recentObjects: z
      .number({ error: `expected a whole number from 1 to ${MAX_RECENT_OBJECTS_PER_CLIENT}` })
      .int({ error: `expected a whole number from 1 to ${MAX_RECENT_OBJECTS_PER_CLIENT}` })
      .min(1)
      .max(MAX_RECENT_OBJECTS_PER_CLIENT)
      .default(DEFAULT_RECENT_OBJECTS)
      .meta({ description: 'recent objects remembered per client: the ones a repeat re-asks' }),
    mobileShare: mobileShareOverrides.prefault({}).meta({
      description: 'share of mobile clients for these regions (spec 4.5), overriding topology.clients.mobileShare; regions left out keep the topology\'s',
    }),
    media: mediaSection.prefault({}).meta({ description: 'range requests for large media (spec 4.8): windows, seeks and watch length' }),
  })
  .transform((clients) => ({
    avifShare: clients.avifShare,
    avifSizeShare: clients.avifSizeShare,
    queryReorderShare: clients.queryReorderShare,
    clientsPerRegion: clients.perRegion,
    revisitShare: clients.revisitShare,
    repeatShare: clients.repeatShare,
    recentObjects: clients.recentObjects,
    mobileShareOverrides: clients.mobileShare,
    media: clients.media,
  }))
  .meta({ description: 'what clients send: device and AVIF shares, AVIF image size, query order, revisits, media viewing' });

/** The section as written in a scenario file. */
export type RequestAttributesInput = z.input<typeof requestAttributesSection>;
/** The resolved section: shares as fractions, sizes in bytes. */
export type RequestAttributesSettings = z.output<typeof requestAttributesSection>;

/**
 * The sampler's spec for the five regions (groups in REGIONS order): the section's settings
 * with each region's mobile share from the override or else from the topology.
 */
export function requestAttributeSpec(settings: RequestAttributesSettings, topologyMobileShares: Readonly<Record<Region, number>>): RequestAttributeSpec {
  return {
    mobileShares: REGIONS.map((region) => settings.mobileShareOverrides[region] ?? topologyMobileShares[region]),
    avifShare: settings.avifShare,
    avifSizeShare: settings.avifSizeShare,
    queryReorderShare: settings.queryReorderShare,
    population: {
      groups: REGIONS.length,
      clientsPerGroup: settings.clientsPerRegion,
      revisitShare: settings.revisitShare,
      repeatShare: settings.repeatShare,
      recentObjects: settings.recentObjects,
    },
    media: { windowBytes: settings.media.windowBytes, seekProbability: settings.media.seekProbability, meanWatchShare: settings.media.meanWatchShare, minBytes: settings.media.minBytes },
  };
}

/** The resolved section written back as input (bytes as numbers): parsing it again gives the same settings. */
export function requestAttributesToInput(settings: RequestAttributesSettings): RequestAttributesInput {
  return {
    avifShare: settings.avifShare,
    avifSizeShare: settings.avifSizeShare,
    queryReorderShare: settings.queryReorderShare,
    perRegion: settings.clientsPerRegion,
    revisitShare: settings.revisitShare,
    repeatShare: settings.repeatShare,
    recentObjects: settings.recentObjects,
    mobileShare: { ...settings.mobileShareOverrides },
    media: {
      windowBytes: settings.media.windowBytes,
      seekProbability: settings.media.seekProbability,
      meanWatchShare: settings.media.meanWatchShare,
      minSize: settings.media.minBytes,
      windowInterval: `${settings.media.windowIntervalMs}ms`,
    },
  };
}
