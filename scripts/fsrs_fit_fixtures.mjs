// Writes tests/fixtures/fsrs_fit/*.json: synthetic drill histories and what fsrs-rs's
// compute_parameters and evaluate make of them, for the tests of `drill --optimize` and
// `drill --evaluate`. Test data only: nothing in the build runs or needs it.
//
//   scripts/fsrs_fit_fixtures [OUT_DIR]   (installs the binding pinned in scripts/fsrs-fit/ first)
//
// Each history is simulated from known "true" FSRS-6 weights with a seeded PRNG written here, so
// the files come out the same on every run. A card's first review is on its day of
// introduction; failed or hard first answers are repeated the same day (Δt = 0, the short-term
// path w17–w19 model); later reviews fall when the card is due for a target retention drawn per
// review, and a lapse is relearned the same day. Ratings come from the true recall probability.
//
// Items follow fsrs-rs's own revlog conversion (convertor_tests.rs, convert_to_fsrs_items): one
// item per review after a card's first whose Δt is > 0, holding the card's reviews up to and
// including it; same-day reviews only ever appear inside an item's history. Items are ordered
// by the day of their last review, then by card, as Anki orders them by revlog id; fsrs-rs
// weights them by that order (recency), so the order is part of the fixture.
import { createRequire } from 'node:module'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const require = createRequire(`${process.env.NODE_PATH ?? '.'}/`)
const binding = require('@open-spaced-repetition/binding')
const bindingVersion = JSON.parse(
  readFileSync(join(process.env.NODE_PATH ?? 'node_modules', '@open-spaced-repetition/binding/package.json'), 'utf8')
).version
const { computeParameters, FSRSBinding, FSRSBindingItem, FSRSBindingReview } = binding

const outDir = process.argv[2] ?? 'tests/fixtures/fsrs_fit'

// fsrs-rs 6.5.0's DEFAULT_PARAMETERS (src/inference.rs), as f32 values print.
const DEFAULT_WEIGHTS = [
  0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835,
  0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
]

// fsrs-rs's TrainingConfig::default() (src/training.rs); passed explicitly so the fixture
// names every setting the fit ran with.
const TRAINING_CONFIG = {
  numEpochs: 5,
  batchSize: 512,
  seed: 2023,
  maxSeqLen: 256,
  learningRate: 0.04,
  gamma: 1.0,
}
const FIT_OPTIONS = { enableShortTerm: true, numRelearningSteps: 1 }

// mulberry32: a small, well-known 32-bit PRNG, enough for synthetic data.
function makeRng(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function pick(rng, probabilities) {
  let u = rng()
  for (let i = 0; i < probabilities.length; i++) {
    u -= probabilities[i]
    if (u < 0) return i + 1
  }
  return probabilities.length
}

// The FSRS-6 memory model (the formulas of fsrs-rs's model.rs), used to simulate learners.
function retrievability(w, elapsedDays, stability) {
  const factor = 0.9 ** (-1 / w[20]) - 1
  return (1 + (factor * elapsedDays) / stability) ** -w[20]
}
function intervalFor(w, stability, retention) {
  const factor = 0.9 ** (-1 / w[20]) - 1
  return (stability / factor) * (retention ** (-1 / w[20]) - 1)
}
const clampD = (d) => Math.min(10, Math.max(1, d))
const initDifficulty = (w, rating) => clampD(w[4] - Math.exp(w[5] * (rating - 1)) + 1)
function nextDifficulty(w, d, rating) {
  const delta = -w[6] * (rating - 3)
  const linearDamped = d + (delta * (10 - d)) / 9
  return clampD(w[7] * initDifficulty(w, 4) + (1 - w[7]) * linearDamped)
}
function step(w, state, elapsedDays, rating) {
  if (state === null) return { s: w[rating - 1], d: initDifficulty(w, rating) }
  let { s, d } = state
  if (elapsedDays === 0) {
    let growth = Math.exp(w[17] * (rating - 3 + w[18])) * s ** -w[19]
    if (rating >= 3) growth = Math.max(growth, 1)
    s *= growth
  } else {
    const r = retrievability(w, elapsedDays, s)
    if (rating === 1) {
      const forget = w[11] * d ** -w[12] * ((s + 1) ** w[13] - 1) * Math.exp((1 - r) * w[14])
      s = Math.min(forget, s / Math.exp(w[17] * w[18]))
    } else {
      const hard = rating === 2 ? w[15] : 1
      const easy = rating === 4 ? w[16] : 1
      s *= 1 + Math.exp(w[8]) * (11 - d) * s ** -w[9] * (Math.exp((1 - r) * w[10]) - 1) * hard * easy
    }
  }
  return { s: Math.min(36500, Math.max(0.001, s)), d: nextDifficulty(w, d, rating) }
}

// A passing answer's rating: easier the more certain recall was.
function passingRating(rng, recall, learner) {
  const [hard, easy] = learner.passSplit
  const u = rng()
  if (u < hard * (1.5 - recall)) return 2
  if (u > 1 - easy * recall) return 4
  return 3
}

// One learner's history: cards introduced over `introduceDays`, reviewed until `horizon`.
function simulate(learner, seed) {
  const rng = makeRng(seed)
  const w = learner.trueWeights
  const cards = []
  for (let day = 0; day < learner.introduceDays; day++) {
    for (let n = 0; n < learner.newPerDay; n++) cards.push({ firstDay: day, reviews: [], days: [] })
  }
  for (const card of cards) {
    let day = card.firstDay
    let lastDay = day
    let state = null
    const review = (rating) => {
      const elapsed = state === null ? 0 : day - lastDay
      card.reviews.push([rating, elapsed])
      card.days.push(day)
      state = step(w, state, elapsed, rating)
      lastDay = day
    }
    // First review, then same-day learning steps until a Good or Easy.
    let rating = pick(rng, learner.firstRatings)
    review(rating)
    for (let steps = 0; rating < 3 && steps < 3 && rng() < learner.sameDayChance; steps++) {
      const recall = rng() < learner.sameDayRecall
      rating = recall ? passingRating(rng, 0.8, learner) : 1
      review(rating)
    }
    for (;;) {
      const retention = learner.retention[0] + rng() * (learner.retention[1] - learner.retention[0])
      const interval = Math.max(1, Math.round(intervalFor(w, state.s, retention) * (0.8 + 0.4 * rng())))
      day += interval
      if (day >= learner.horizon) break
      const recall = retrievability(w, day - lastDay, state.s)
      rating = rng() < recall ? passingRating(rng, recall, learner) : 1
      review(rating)
      // A lapse is relearned the same day, once or twice.
      for (let steps = 0; rating === 1 && steps < 2 && rng() < learner.sameDayChance; steps++) {
        rating = rng() < learner.sameDayRecall ? 3 : 1
        review(rating)
      }
      // Sometimes a passed card is looked at again the same day (a cram or an extra drill).
      if (rating > 1 && rng() < learner.extraSameDay) review(rng() < learner.sameDayRecall ? 3 : 1)
    }
  }
  return cards
}

// Items in fsrs-rs's order: [card index, index of the item's last review].
function itemsOf(cards) {
  const items = []
  cards.forEach((card, c) =>
    card.reviews.forEach(([, elapsed], i) => {
      if (i > 0 && elapsed > 0) items.push([c, i, card.days[i]])
    })
  )
  items.sort((a, b) => a[2] - b[2] || a[0] - b[0] || a[1] - b[1])
  return items.map(([c, i]) => [c, i])
}

const toBinding = (cards, items) =>
  items.map(
    ([c, i]) =>
      new FSRSBindingItem(cards[c].reviews.slice(0, i + 1).map(([r, t]) => new FSRSBindingReview(r, t)))
  )

const f32 = (x) => Math.fround(x)
const roundTrip = (values) => values.map((x) => Number(f32(x).toPrecision(9)))
// evaluate's answer, or its error (it refuses when the outlier filter leaves no item).
function evaluate(weights, bindingItems) {
  try {
    // fsrs-rs sums the bins in HashMap order, which changes from run to run, so the f32
    // RMSE's last bits do too: seven decimals keep the files the same on every run.
    const { logLoss, rmseBins } = new FSRSBinding(weights).evaluate(bindingItems)
    return { log_loss: Number(logLoss.toFixed(7)), rmse_bins: Number(rmseBins.toFixed(7)) }
  } catch (error) {
    return { error: error.message }
  }
}

async function makeFixture({ name, description, seed, learner, cards: givenCards, fitOptions = FIT_OPTIONS }) {
  const cards = givenCards ?? simulate(learner, seed)
  const items = itemsOf(cards)
  const bindingItems = toBinding(cards, items)
  const fitted = roundTrip(
    await computeParameters(bindingItems, { ...fitOptions, trainingConfig: TRAINING_CONFIG })
  )
  // With no epochs, compute_parameters returns its pretrain: w0–w3 from the first long-term
  // reviews (smoothed and filled), the rest defaults. Below 8 training items it returns the
  // defaults before pretraining.
  const pretrained = roundTrip(
    await computeParameters(bindingItems, {
      ...fitOptions,
      trainingConfig: { ...TRAINING_CONFIG, numEpochs: 0 },
    })
  )
  const fixture = {
    name,
    description,
    reference: {
      package: '@open-spaced-repetition/binding',
      version: bindingVersion,
      fsrs_rs: '6.5.0',
      compute_parameters: {
        enable_short_term: fitOptions.enableShortTerm,
        num_relearning_steps: fitOptions.numRelearningSteps,
        training_config: {
          num_epochs: TRAINING_CONFIG.numEpochs,
          batch_size: TRAINING_CONFIG.batchSize,
          seed: TRAINING_CONFIG.seed,
          max_seq_len: TRAINING_CONFIG.maxSeqLen,
          learning_rate: TRAINING_CONFIG.learningRate,
          gamma: TRAINING_CONFIG.gamma,
        },
        card_ids: null,
      },
      evaluate: 'FSRSBinding(weights).evaluate(items): the outlier filter, then fsrs-rs FSRS::evaluate',
    },
    generator: givenCards
      ? { seed: null, settings: 'hand-built, see description' }
      : { seed, settings: learner },
    item_count: items.length,
    card_count: cards.length,
    default_weights: DEFAULT_WEIGHTS,
    pretrained_weights: pretrained,
    fitted_weights: fitted,
    evaluate: {
      default_weights: evaluate(DEFAULT_WEIGHTS, bindingItems),
      fitted_weights: evaluate(fitted, bindingItems),
    },
    cards: cards.map((card) => card.reviews),
    items,
  }
  return fixture
}

// Compact JSON: one card or one line of items per line, so a diff stays readable.
function format(fixture) {
  const { cards, items, ...head } = fixture
  const lines = JSON.stringify(head, null, 1)
    .replace(/\[\n[\d.,\s-]+\]/g, (list) => list.replace(/\s+/g, ''))
    .split('\n')
  lines.pop()
  lines[lines.length - 1] += ','
  const chunks = []
  for (let i = 0; i < items.length; i += 40) chunks.push(JSON.stringify(items.slice(i, i + 40)).slice(1, -1))
  return [
    ...lines,
    ' "cards": [',
    cards.map((card) => `  ${JSON.stringify(card)}`).join(',\n'),
    ' ],',
    ' "items": [',
    chunks.map((chunk) => `  ${chunk}`).join(',\n'),
    ' ]',
    '}',
    '',
  ].join('\n')
}

const base = {
  trueWeights: DEFAULT_WEIGHTS,
  introduceDays: 60,
  newPerDay: 5,
  horizon: 150,
  firstRatings: [0.2, 0.15, 0.5, 0.15],
  sameDayChance: 0.8,
  sameDayRecall: 0.75,
  extraSameDay: 0.05,
  retention: [0.75, 0.95],
  passSplit: [0.15, 0.2],
}
const perturb = (changes) => DEFAULT_WEIGHTS.map((x, i) => changes[i] ?? x)

// Seven items: a card reviewed a few times, below the 8 items compute_parameters needs.
const tinyCards = [
  { reviews: [[3, 0], [3, 1], [3, 3], [1, 8], [3, 0], [3, 1]], days: [0, 1, 4, 12, 12, 13] },
  { reviews: [[1, 0], [3, 0], [3, 1], [4, 3], [3, 9]], days: [0, 0, 1, 4, 13] },
]
// 63 items that all pass the outlier filter: 21 cards whose first rating is Good and whose
// first long-term review is a day later (one group of ≥ 20, kept), each reviewed twice more.
const smallCards = Array.from({ length: 21 }, (_, c) => {
  const second = c % 5 === 0 ? 1 : 3
  const third = second === 1 ? [1, 2] : [3, 4 + (c % 4)]
  const reviews = [[3, 0], [second, 1], third, [3, 6 + (c % 3)]]
  if (second === 1) reviews.splice(2, 0, [3, 0])
  let day = 0
  const days = reviews.map(([, t]) => (day += t))
  return { reviews, days }
})

const fixtures = [
  {
    name: 'learner_typical',
    description:
      'a learner near the defaults but faster-growing and flatter-forgetting (w8 1.6 → 2.0, w20 0.25); 300 cards over 60 days, reviewed to day 150',
    seed: 20240601,
    learner: {
      ...base,
      trueWeights: perturb({ 2: 3.2, 3: 12, 8: 2.0, 10: 0.95, 17: 0.7, 18: 0.2, 20: 0.25 }),
    },
  },
  {
    name: 'learner_forgetful',
    description: 'low initial stability, slow growth, steep difficulty: many lapses and relearning steps',
    seed: 20240602,
    learner: {
      ...base,
      trueWeights: perturb({ 0: 0.1, 1: 0.6, 2: 1.4, 3: 4.5, 6: 2.2, 8: 1.3, 11: 2.2, 15: 0.4, 17: 0.9, 18: 0.3 }),
      firstRatings: [0.35, 0.2, 0.38, 0.07],
      sameDayRecall: 0.6,
      passSplit: [0.3, 0.08],
    },
  },
  {
    name: 'learner_confident',
    description: 'high initial stability, fast growth, many Easy answers, flatter forgetting (w20 0.35)',
    seed: 20240603,
    learner: {
      ...base,
      trueWeights: perturb({ 0: 0.5, 1: 2.5, 2: 4.5, 3: 15, 8: 2.2, 10: 1.1, 16: 2.4, 17: 0.3, 18: 0.05, 20: 0.35 }),
      firstRatings: [0.1, 0.1, 0.45, 0.35],
      sameDayRecall: 0.9,
      passSplit: [0.08, 0.35],
      introduceDays: 80,
      newPerDay: 8,
      horizon: 200,
    },
  },
  {
    name: 'bounds_push',
    description:
      'built to push w17–w20 down: same-day reviews that leave stability as it was (true w17, w18, w19 0) and an almost flat forgetting curve (true w20 0.02); the fit reaches w20\'s bound 0.1, while w17 (0.25) and w19 (0.05) only move toward theirs in the 30 Adam steps the default training config allows',
    seed: 20240604,
    learner: {
      ...base,
      trueWeights: perturb({ 17: 0, 18: 0, 19: 0, 20: 0.02 }),
      sameDayChance: 0.95,
      extraSameDay: 0.4,
      firstRatings: [0.35, 0.25, 0.3, 0.1],
      introduceDays: 80,
      newPerDay: 24,
      horizon: 200,
    },
  },
  {
    name: 'relearning_ceiling',
    description:
      'learner_typical fitted with num_relearning_steps 3: the clip caps w17 and w18 at sqrt(-(ln w11 + ln(2^w13 - 1) + 0.3 w14) / 3), below their default',
    seed: 20240601,
    learner: {
      ...base,
      trueWeights: perturb({ 2: 3.2, 3: 12, 8: 2.0, 10: 0.95, 17: 0.7, 18: 0.2, 20: 0.25 }),
    },
    fitOptions: { enableShortTerm: true, numRelearningSteps: 3 },
  },
  {
    name: 'tiny_7_items',
    description: 'two hand-built cards, 7 training items: compute_parameters keeps the defaults (fewer than 8 items)',
    cards: tinyCards,
  },
  {
    name: 'small_63_items',
    description:
      '21 hand-built cards, 63 training items that all survive the outlier filter: compute_parameters fits w0–w3 only (fewer than 64 items)',
    cards: smallCards,
  },
]

mkdirSync(outDir, { recursive: true })
for (const spec of fixtures) {
  const fixture = await makeFixture(spec)
  writeFileSync(join(outDir, `${spec.name}.json`), format(fixture))
  const { default_weights: d, fitted_weights: f } = fixture.evaluate
  const show = (e) => (e.error ? e.error : `log loss ${e.log_loss.toFixed(5)}, RMSE(bins) ${e.rmse_bins.toFixed(5)}`)
  console.error(`${spec.name}: ${fixture.item_count} items; defaults ${show(d)}; fitted ${show(f)}`)
}
