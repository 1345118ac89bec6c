import type { LibraryEntry } from '../libraryEntry.js';
import { apiTtl } from './apiTtl.js';
import { cacheSizing } from './cacheSizing.js';
import { newsFlashCrowd } from './newsFlashCrowd.js';
import { originOutage } from './originOutage.js';
import { popSizing } from './popSizing.js';
import { productionPopSizing } from './productionPopSizing.js';
import { regionalSharing } from './regionalSharing.js';
import { shopAvif } from './shopAvif.js';
import { spaDeploy } from './spaDeploy.js';
import { steadyChurn } from './steadyChurn.js';
import { vodSeeking } from './vodSeeking.js';

/** The scenario library, in the order docs/library/README.md lists it. */
export const LIBRARY_ENTRIES: readonly LibraryEntry[] = [newsFlashCrowd, shopAvif, vodSeeking, apiTtl, spaDeploy, originOutage, cacheSizing, popSizing, productionPopSizing, regionalSharing, steadyChurn];
