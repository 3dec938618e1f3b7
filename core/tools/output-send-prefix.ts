/** Every channel's send tool is this prefix and the channel's name: the channels plugin owns the whole namespace. */
export const OUTPUT_SEND_PREFIX = 'output_send__';
