import type { Refusals } from './index';

/** The refusals of the cage desk's acts, by the service's code (see index.ts). */
export const CAGE_REFUSALS: Refusals = {
  en: {},
  'zh-Hant': {},
  'zh-Hans': {},
};
