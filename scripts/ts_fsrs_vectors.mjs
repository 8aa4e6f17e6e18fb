// Prints the ts-fsrs interval vectors that tests/test_fsrs.cpp replays for the Hard < Good < Easy
// order of review intervals. Test data only: nothing in the build runs or needs it.
//
//   scripts/ts_fsrs_vectors   (installs the ts-fsrs pinned in scripts/ts-fsrs/ first, then runs this)
//
// Each line is one review: the card's state before it; for a card in review the Hard, Good and
// Easy intervals in days that ts-fsrs previews, and in brackets each one's interval on its own
// (ts-fsrs's next_interval of that rating's stability, before the order rule); then the rating
// given and the minutes to the due time it sets. Fuzz is off; the first review is at
// 2022-11-29 12:30 UTC, each later one when the card falls due, or `later` minutes after the
// previous review.
import { createRequire } from 'node:module'

const require = createRequire(`${process.env.NODE_PATH ?? '.'}/`)
const { createEmptyCard, fsrs, Rating, State } = require('ts-fsrs')

const names = {
  [Rating.Again]: 'again',
  [Rating.Hard]: 'hard',
  [Rating.Good]: 'good',
  [Rating.Easy]: 'easy',
}
const states = {
  [State.New]: 'new',
  [State.Learning]: 'learning',
  [State.Review]: 'review',
  [State.Relearning]: 'relearning',
}

function replay(title, parameters, reviews) {
  const scheduler = fsrs({ enable_fuzz: false, ...parameters })
  let card = createEmptyCard(new Date(Date.UTC(2022, 10, 29, 12, 30)))
  let now = card.due
  console.log(`# ${title}`)
  for (const { rating, later } of reviews) {
    if (later !== undefined) now = new Date(+card.last_review + later * 60000)
    const preview = scheduler.repeat(card, now)
    const grades = [Rating.Hard, Rating.Good, Rating.Easy]
    const ordered = grades.map((g) => preview[g].card.scheduled_days).join('/')
    const alone = grades.map((g) => scheduler.next_interval(preview[g].card.stability, 0)).join('/')
    const passing = card.state === State.Review ? `${ordered} (${alone})` : '-'
    const next = preview[rating].card
    console.log(`${states[card.state]} ${passing} ${names[rating]} ${(next.due - now) / 60000}`)
    card = next
    now = card.due
  }
}

const { Again, Hard, Good, Easy } = Rating
const due = (...ratings) => ratings.map((rating) => ({ rating }))

replay(
  'low stability, default parameters',
  {},
  due(Again, Again, Good, Good, Hard, Hard, Good, Again, Good, Hard, Good, Easy, Good)
)
replay('a second review on the same day', {}, [
  ...due(Again, Again, Good, Good),
  { rating: Good, later: 1440 + 60 },
  { rating: Hard, later: 60 },
])
replay('maximum_interval 100', { maximum_interval: 100 }, due(Easy, Good, Easy, Good))
