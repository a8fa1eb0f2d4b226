export { Clock, Timer, realClock } from './clock';
