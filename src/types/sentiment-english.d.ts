// The English language module of `sentiment`: AFINN-165 valences by word.
declare module "sentiment/languages/en/index.js" {
  const english: { labels: Record<string, number> };
  export default english;
}
