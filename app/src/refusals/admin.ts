import type { Refusals } from './index';

/** The refusals of the admin desk's acts, by the service's code (see index.ts). */
export const ADMIN_REFUSALS: Refusals = {
  en: {},
  'zh-Hant': {},
  'zh-Hans': {},
};
