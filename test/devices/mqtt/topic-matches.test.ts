import { describe, expect, it } from 'vitest';
import { topicMatches } from '../../../devices/mqtt/topic-matches.ts';

// Cases from the MQTT 5 specification, 4.7.1 and 4.7.2.
describe('topicMatches', () => {
  it('matches + as exactly one level', () => {
    expect(topicMatches('sport/tennis/+', 'sport/tennis/player1')).toBe(true);
    expect(topicMatches('sport/tennis/+', 'sport/tennis/player1/ranking')).toBe(false);
    expect(topicMatches('sport/+', 'sport')).toBe(false);
    expect(topicMatches('sport/+', 'sport/')).toBe(true);
    expect(topicMatches('+/+', '/finance')).toBe(true);
    expect(topicMatches('/+', '/finance')).toBe(true);
    expect(topicMatches('+', '/finance')).toBe(false);
  });

  it('matches a final # as the level above and any number below', () => {
    expect(topicMatches('sport/tennis/player1/#', 'sport/tennis/player1')).toBe(true);
    expect(topicMatches('sport/tennis/player1/#', 'sport/tennis/player1/ranking')).toBe(true);
    expect(topicMatches('sport/tennis/player1/#', 'sport/tennis/player1/score/wimbledon')).toBe(true);
    expect(topicMatches('sport/#', 'sport')).toBe(true);
    expect(topicMatches('#', 'any/thing')).toBe(true);
    expect(topicMatches('sport/tennis/#', 'sport/golf')).toBe(false);
  });

  it('matches plain levels exactly', () => {
    expect(topicMatches('a/b', 'a/b')).toBe(true);
    expect(topicMatches('a/b', 'a/c')).toBe(false);
    expect(topicMatches('a/b', 'a/b/c')).toBe(false);
  });

  it('keeps $ topics from filters that start with a wildcard', () => {
    expect(topicMatches('#', '$SYS/broker/clients')).toBe(false);
    expect(topicMatches('+/monitor/Clients', '$SYS/monitor/Clients')).toBe(false);
    expect(topicMatches('$SYS/#', '$SYS/broker/clients')).toBe(true);
  });
});
