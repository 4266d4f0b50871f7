// The game engine: rules, settlement and exact odds, with no framework or database imports.
export * from './cards';
export * from './errors';
export * from './money';
export * from './odds';
export * from './rules';
export * from './settlement';
export * from './limits';
export * from './tableau';
export * from './shoe';
export * from './simulation';
export * from './gaming-day';
export * from './player-banked';
export * from './two-person';
export * from './accounting';
export * from './roads';
export * from './moments';
