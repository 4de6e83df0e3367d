import { companyInfoTemplate, contactInfoTemplate } from '../../buyers/buyer-shape';
import type { LockedBuyer } from './buyer-writer';

/** For unit tests: Buyer 1 of ann@acme.com as Match finds it before its first Signal. */
export function newLockedBuyer(): LockedBuyer {
  return {
    id: '1',
    person_key: 'ann@acme.com',
    contact_info: contactInfoTemplate(),
    company_info: companyInfoTemplate(),
    hems: [],
    sources: {},
    signal_count_total: 0,
    signal_count_website: 0,
    signal_count_market: 0,
    signal_count_linkedin: 0,
    first_signal_id: null,
    first_signal_at: null,
    last_signal_id: null,
    last_signal_at: null,
  };
}
