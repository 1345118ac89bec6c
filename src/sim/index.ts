export { EventQueue } from './eventQueue.js';
export { Simulation, type EventHandler, type RunLimits, type RunOutcome } from './simulation.js';
export { RandomStream, RandomStreams } from './random.js';
