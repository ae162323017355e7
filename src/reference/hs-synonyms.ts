/**
 * Everyday words for goods, and the HS 2022 headings (or subheadings) that classify them: O6
 * puts these first, since the nomenclature's own words ("automatic data processing machines",
 * "electric accumulators") are rarely the ones a shop uses. Compiled by hand for this service from
 * the heading texts of HS 2022 (datasets/harmonized-system) and the WCO's explanatory notes on
 * what each heading covers; a term is singular, lower case, words separated by one space.
 * A wrong or missing term is reported like a wrong tax figure (seed/SOURCES.md).
 */
const TABLE: [terms: string, codes: string][] = [
  // Electronics and appliances
  ["laptop, notebook computer, computer, desktop computer, tablet, ipad", "8471 847130"],
  ["smartphone, mobile phone, cell phone, cellphone, phone, smartwatch", "8517"],
  ["headphone, earphone, earbud, headset, speaker, loudspeaker, microphone", "8518"],
  ["television, tv, monitor, projector", "8528"],
  ["printer, 3d printer", "8443 8485"],
  ["camera, webcam, digital camera", "8525"],
  ["charger, power adapter, power supply, transformer", "8504"],
  ["battery, lithium battery, power bank", "8506 8507"],
  ["solar panel, solar cell, solar module, photovoltaic", "8541"],
  ["led, led bulb, light bulb, bulb", "8539"],
  ["lamp, light, ceiling light", "9405 8539"],
  ["cable, usb cable, wire, charging cable", "8544"],
  ["drone, unmanned aircraft", "8806"],
  ["video game, game console, playing card, board game", "9504"],
  ["kettle, coffee machine, coffee maker, microwave, hair dryer, toaster, electric heater", "8516"],
  ["refrigerator, fridge, freezer", "8418"],
  ["washing machine", "8450"],
  ["dishwasher", "8422"],
  ["vacuum cleaner, vacuum, robot vacuum", "8508"],
  ["air conditioner", "8415"],
  ["fan, ceiling fan", "8414"],
  ["electric motor, motor", "8501"],
  ["generator", "8502"],
  ["sewing machine", "8452"],
  ["vape, e cigarette, electronic cigarette", "2404 8543"],
  // Vehicles and parts
  ["bicycle, bike", "8712"],
  ["e bike, electric bicycle, electric scooter, motorcycle, motorbike", "8711"],
  ["scooter, kick scooter", "8711 9503"],
  ["car, automobile", "8703"],
  ["tyre, tire", "4011"],
  ["engine", "8407 8408"],
  ["wheelchair", "8713"],
  // Clothing, footwear, accessories
  ["sneaker, trainer, running shoe, sports shoe, tennis shoe", "6404"],
  ["shoe", "6403 6404 6402"],
  ["boot", "6403 6401"],
  ["sandal, flip flop", "6402 6404"],
  ["t shirt, tshirt, tee", "6109"],
  ["shirt, blouse", "6105 6205"],
  ["jean, trouser, pant", "6203 6204"],
  ["dress, skirt", "6104 6204"],
  ["sweater, jumper, pullover, hoodie, sweatshirt, cardigan", "6110"],
  ["jacket, coat, anorak", "6201 6202"],
  ["sock, stocking, tight", "6115"],
  ["underwear, bra, brief", "6107 6108 6212"],
  ["hat, cap, beanie", "6505"],
  ["glove", "6116 6216 4015"],
  ["handbag, bag, backpack, rucksack, wallet, purse, suitcase, luggage", "4202"],
  ["watch, wristwatch", "9102 9101"],
  ["sunglass, spectacle, eyeglass", "9004"],
  ["jewelry, jewellery, ring, necklace, bracelet, earring", "7113 7117"],
  ["umbrella", "6601"],
  ["face mask, mask", "6307"],
  // Home
  ["toy, doll, lego, building block, puzzle, teddy bear", "9503"],
  ["chair, sofa, couch, seat", "9401"],
  ["table, desk, bed, wardrobe, cabinet, shelf, furniture", "9403"],
  ["mattress, pillow, cushion, duvet", "9404"],
  ["blanket", "6301"],
  ["towel, bed sheet, bed linen", "6302"],
  ["curtain", "6303"],
  ["carpet, rug", "5703 5702"],
  ["tent", "6306"],
  ["knife", "8211"],
  ["scissor", "8213"],
  ["spoon, fork, cutlery", "8215"],
  ["pan, pot, cookware, frying pan", "7323 7615"],
  ["mug, cup, plate, bowl, tableware", "6912 6911"],
  ["bottle, plastic bottle, plastic bag", "3923 7010"],
  // Tools and hardware
  ["screw, bolt, washer, rivet", "7318"],
  ["nail", "7317"],
  ["hammer, wrench, spanner, screwdriver, plier", "8205 8204"],
  ["drill, power drill, power tool", "8467"],
  ["saw", "8202"],
  ["pump", "8413"],
  ["valve, tap, faucet", "8481"],
  ["bearing, ball bearing", "8482"],
  ["syringe, needle", "9018"],
  ["thermometer", "9025"],
  // Health and beauty
  ["medicine, drug, pill, tablet medicine", "3004"],
  ["vitamin, supplement", "2936 2106"],
  ["toothbrush", "9603"],
  ["toothpaste", "3306"],
  ["shampoo, conditioner, hair spray", "3305"],
  ["soap", "3401"],
  ["perfume, eau de toilette, cologne", "3303"],
  ["makeup, make up, cosmetic, lipstick, skin cream, sunscreen", "3304"],
  ["diaper, nappy, sanitary pad, tampon", "9619"],
  // Food and drink
  ["coffee", "0901"],
  ["tea", "0902"],
  ["chocolate, cocoa", "1806"],
  ["candy, sweet, lollipop, chewing gum", "1704"],
  ["sugar", "1701"],
  ["rice", "1006"],
  ["flour", "1101"],
  ["bread, biscuit, cookie, cake", "1905"],
  ["pasta, noodle, spaghetti", "1902"],
  ["cheese", "0406"],
  ["milk", "0401 0402"],
  ["butter", "0405"],
  ["egg", "0407"],
  ["honey", "0409"],
  ["beef", "0201 0202"],
  ["pork", "0203"],
  ["chicken, poultry", "0207"],
  ["fish, salmon, tuna", "0302 0303 0304"],
  ["shrimp, prawn, lobster, crab", "0306"],
  ["apple", "0808"],
  ["banana", "0803"],
  ["orange, lemon, citrus", "0805"],
  ["grape", "0806"],
  ["nut, almond, walnut, cashew", "0802 0801"],
  ["wine", "2204"],
  ["beer", "2203"],
  ["whisky, whiskey, vodka, gin, rum, spirit, liquor", "2208"],
  ["water, mineral water", "2201"],
  ["juice", "2009"],
  ["olive oil", "1509"],
  ["pet food, dog food, cat food", "2309"],
  ["cigarette, cigar", "2402"],
  ["tobacco", "2401 2403"],
  // Materials and commodities
  ["paper", "4802"],
  ["book", "4901"],
  ["notebook, exercise book, diary", "4820 8471"],
  ["pen, ballpoint", "9608"],
  ["pencil, crayon", "9609"],
  ["glassware, drinking glass, glass", "7013 9004"],
  ["steel pipe, steel tube", "7304 7306"],
  ["aluminium, aluminum", "7601"],
  ["copper", "7403"],
  ["gold", "7108"],
  ["silver", "7106"],
  ["diamond", "7102"],
  ["cotton", "5201 5208"],
  ["wool", "5101"],
  ["silk", "5007"],
  ["leather", "4107"],
  ["wood, timber, lumber", "4407"],
  ["plywood", "4412"],
  ["cement", "2523"],
  ["paint", "3208 3209"],
  ["glue, adhesive", "3506"],
  ["fertilizer, fertiliser", "3102 3105"],
  ["pesticide, insecticide, herbicide", "3808"],
  ["crude oil, petroleum", "2709"],
  ["gasoline, petrol, diesel, fuel", "2710"],
  ["natural gas, lpg", "2711"],
  ["coal", "2701"],
  ["seed", "1209"],
  ["flower", "0603"],
  ["plant", "0602"],
  // Leisure
  ["guitar, violin", "9202"],
  ["piano, keyboard instrument", "9201"],
  ["football, ball, basketball, tennis ball", "9506"],
  ["fishing rod", "9507"],
];

const BY_TERM = new Map<string, string[]>(TABLE.flatMap(([terms, codes]) => terms.split(", ").map((term) => [term, codes.split(" ")] as const)));

/** English plurals to the table's singular: sneakers, batteries, glasses, watches, knives. */
function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.endsWith("ives")) return `${word.slice(0, -4)}ife`;
  if (/(ss|ch|sh|x)es$/.test(word)) return word.slice(0, -2);
  return word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/**
 * The headings the words of a query name: the whole query, each pair of neighbouring words, each
 * word; in that order, without repeats.
 */
export function headingsFor(keywords: string): string[] {
  const words = (keywords.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(singular);
  const phrases = [words.join(" "), ...words.slice(1).map((word, i) => `${words[i]} ${word}`), ...words];
  return [...new Set(phrases.flatMap((phrase) => BY_TERM.get(phrase) ?? []))];
}
