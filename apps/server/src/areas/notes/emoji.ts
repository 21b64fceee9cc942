// A note whose body is only an award emoji (`:thumbsup:`) awards that emoji instead of making a note
// (GitLab's Note#award_emoji?: the body matches the emoji pattern alone, optionally followed by a blank).
// Only names of emoji are awards; anything else between colons stays a note.

/** Names GitLab accepts for awards (gemoji names), commonest first; `+1`/`-1` are aliases. */
const EMOJI_NAMES = new Set(
  [
    'thumbsup thumbsdown smile smiley grinning grin joy laughing blush wink heart heart_eyes tada rocket',
    'eyes fire star star2 sparkles clap pray muscle ok_hand wave raised_hands point_up v thinking',
    'confused cry sob disappointed worried angry rage scream astonished open_mouth neutral_face',
    'expressionless unamused sweat_smile sweat relieved sunglasses smirk stuck_out_tongue yum innocent',
    'kissing_heart upside_down slight_smile slight_frown zipper_mouth nerd hugging rofl facepalm shrug',
    '100 white_check_mark heavy_check_mark x warning bug bulb question exclamation boom zap trophy medal',
    'gift cake coffee beer beers pizza party_popper balloon confetti_ball see_no_evil hear_no_evil',
    'speak_no_evil skull ghost robot alien poop unicorn dog cat tanuki fox panda_face monkey turtle snail',
    'rainbow sunny cloud snowflake umbrella hourglass alarm_clock lock unlock key hammer wrench gear link',
    'memo pencil book books mag chart_with_upwards_trend chart_with_downwards_trend arrow_up arrow_down',
    'arrow_left arrow_right recycle construction rotating_light checkered_flag triangular_flag_on_post',
    'dart game_die crown gem moneybag two_hearts broken_heart blue_heart green_heart yellow_heart',
    'purple_heart',
  ]
    .join(' ')
    .split(' '),
);

const ALIASES: Readonly<Record<string, string>> = { '+1': 'thumbsup', '-1': 'thumbsdown' };

const EMOJI_ONLY = /^:([a-z0-9_+-]+):\s?$/;

/** The award emoji's name when the body is only an emoji (`:+1:` gives `thumbsup`), else undefined. */
export function awardEmojiName(body: string): string | undefined {
  const name = EMOJI_ONLY.exec(body)?.[1];
  if (name === undefined) return undefined;
  const normalised = ALIASES[name] ?? name;
  return EMOJI_NAMES.has(normalised) ? normalised : undefined;
}
