declare module 'wink-porter2-stemmer' {
  /** The Porter2 stem of one lower-case English word. */
  export default function stem(word: string): string;
}
