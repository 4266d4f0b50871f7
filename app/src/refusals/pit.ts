import type { Refusals } from './index';

/** The refusals of the pit desk's acts, by the service's code (see index.ts). */
export const PIT_REFUSALS: Refusals = {
  en: {},
  'zh-Hant': {},
  'zh-Hans': {},
};
