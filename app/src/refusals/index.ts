import type { Lang } from '../i18n';
import { PIT_REFUSALS } from './pit';
import { CAGE_REFUSALS } from './cage';
import { VIP_REFUSALS } from './vip';
import { ADMIN_REFUSALS } from './admin';

/**
 * What each refusal of the service means, by its stable code, in each language: the sentence a
 * screen shows above the service's own (English) message. Each desk keeps the codes its acts can be
 * refused with in its own file; a code missing here is shown with the service's message and the
 * general advice.
 */
export type Refusals = Record<Lang, Record<string, string>>;

export const REFUSALS: Refusals = {
  en: { ...PIT_REFUSALS.en, ...CAGE_REFUSALS.en, ...VIP_REFUSALS.en, ...ADMIN_REFUSALS.en },
  'zh-Hant': { ...PIT_REFUSALS['zh-Hant'], ...CAGE_REFUSALS['zh-Hant'], ...VIP_REFUSALS['zh-Hant'], ...ADMIN_REFUSALS['zh-Hant'] },
  'zh-Hans': { ...PIT_REFUSALS['zh-Hans'], ...CAGE_REFUSALS['zh-Hans'], ...VIP_REFUSALS['zh-Hans'], ...ADMIN_REFUSALS['zh-Hans'] },
};
