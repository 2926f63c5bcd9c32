/**
 * The words of response delivery (watchdog spec part B) that the hook bus carries in its
 * `response.outbound` and `delivery.result` events. They live here, under bus/, because both
 * rooms use them and the bus is the lower one: delivery/ emits on the bus and imports these from
 * here; the bus never imports delivery/ (STYLE.md habit 16).
 */

/** `already_sent`: the channel recognised this response_id + chunk and returned the first message. */
export type AckStatus = 'sent' | 'already_sent';

/**
 * What a response is: an agent reply; a silence beacon posted as a channel message; or an alert
 * notice posted on an external channel (issue 18). Only a reply is the turn's response or settles a wake.
 */
export type DeliveryPurpose = 'reply' | 'beacon' | 'alert';

/** The final delivery states of a chunk (the one home of this type: bus events and outcomes use it). */
export type ChunkFinal = 'delivered' | 'failed_final' | 'uncertain';
