export { EventBus, type LarderEvent, type PublishInput, type EventListener } from "./bus.js";
export {
  EVENT_TYPES,
  eventTitle,
  eventTypeNumber,
  type EventType,
  type EventDocument,
  type EventOperation,
} from "./event-types.js";
