import { describe, expect, it } from 'vitest';
import { chatTitle, DEFAULT_CHAT_TITLE } from '@shared/chat-title';

describe('chatTitle: a new chat named from its first message', () => {
  it.each([
    ['Hello there, can you explain how rainbows form?', 'Explain how rainbows form'],
    ['hi! could you please write a haiku about autumn leaves', 'Write a haiku about autumn leaves'],
    ["Hey, I'd like to learn Rust. Where do I start?", 'Learn Rust'],
    ['I want to sort a list of dicts by two keys in Python, descending on the second', 'Sort a list of dicts'],
    ['Good morning!\nPlease summarise this article for me', 'Summarise this article for me'],
    ['Help me plan a trip to Kyoto please', 'Plan a trip to Kyoto'],
    ['What is   the capital of France?', 'What is the capital of France?'],
    ['why is the sky blue', 'Why is the sky blue'],
  ])('%j → %j', (text, title) => expect(chatTitle(text)).toBe(title));

  it('strips markdown, code fences and URLs, keeping the words of links and emphasis', () => {
    expect(chatTitle('## **Fix** this `useEffect` loop\n```ts\nuseEffect(() => setX(x + 1));\n```')).toBe(
      'Fix this useEffect loop',
    );
    expect(chatTitle('Summarise https://example.com/a/very/long/path?x=1 in three bullets')).toBe(
      'Summarise in three bullets',
    );
    expect(chatTitle('Compare [llama.cpp](https://github.com/ggml-org/llama.cpp) and vLLM')).toBe(
      'Compare llama.cpp and vLLM',
    );
    expect(chatTitle('> quoted\n- listed item')).toBe('Quoted');
  });

  it('keeps at most six words at a word boundary, never a cut word, within 60 characters', () => {
    const title = chatTitle('Explain the differences between supercalifragilistic and antidisestablishmentarianism');
    expect(title).toBe('Explain the differences between supercalifragilistic');
    expect(chatTitle('a'.repeat(200))).toHaveLength(60);
    expect(chatTitle('Internationalization internationalization internationalization words')).toBe(
      'Internationalization internationalization',
    );
  });

  it('never ends a cut title mid-phrase: no trailing "a", "about", "the", "and"…, and "tell me" is filler', () => {
    expect(chatTitle('Tell me a story about a dragon who learns to fly')).toBe('A story about a dragon');
    expect(chatTitle('Write a poem about the sea and the sky at night')).toBe('Write a poem about the sea');
    expect(chatTitle('Give me some ideas for a birthday party for my sister')).toBe('Give me some ideas');
    expect(chatTitle('Tell me a joke')).toBe('A joke');
    for (const text of ['Tell me a story about a dragon', 'How do I convert a PyTorch model to GGUF for llama.cpp'])
      expect(chatTitle(text), text).not.toMatch(/\b(?:a|an|the|about|of|to|for|and|or|with|in|on|my|who)$/i);
  });

  it('skips a greeting-only sentence, and falls back to "New chat" when nothing is left', () => {
    expect(chatTitle('Hi!\n\nWhat does Q4_K_M mean?')).toBe('What does Q4_K_M mean?');
    for (const text of ['hi', 'Hello there', '  please  ', '```\ncode only\n```', 'https://example.com', '👋'])
      expect(chatTitle(text), text).toBe(DEFAULT_CHAT_TITLE);
  });

  it('does not take a word that only starts like a greeting or filler for one', () => {
    expect(chatTitle('History of Rome')).toBe('History of Rome');
    expect(chatTitle('Sorting algorithms, fastest first')).toBe('Sorting algorithms, fastest first');
    expect(chatTitle('You are a pirate. Talk like one')).toBe('You are a pirate');
  });
});
