/** Signal types and their triggers (spec: "Triggers per type"). */
export const SIGNAL_TRIGGERS = {
  website: ['visited_page', 'filled_form', 'abandoned_form'],
  market: ['researched_topic', 'explored_product', 'evaluated_competitor'],
  linkedin: ['followed_page', 'commented_post', 'reacted_post'],
} as const;

export type SignalType = keyof typeof SIGNAL_TRIGGERS;
export type SignalTrigger = (typeof SIGNAL_TRIGGERS)[SignalType][number];

export const SIGNAL_TYPES = Object.keys(SIGNAL_TRIGGERS) as SignalType[];
export const ALL_TRIGGERS = SIGNAL_TYPES.flatMap<SignalTrigger>((type) => [...SIGNAL_TRIGGERS[type]]);

export function isSignalType(value: string): value is SignalType {
  return Object.prototype.hasOwnProperty.call(SIGNAL_TRIGGERS, value);
}

export function triggerBelongsTo(type: SignalType, trigger: string): trigger is SignalTrigger {
  return (SIGNAL_TRIGGERS[type] as readonly string[]).includes(trigger);
}

export interface Attribution {
  type: string;
  source: string;
  source_name: string;
  source_logo: string;
}

export const emptyAttribution = (): Attribution => ({ type: '', source: '', source_name: '', source_logo: '' });
