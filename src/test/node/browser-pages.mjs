// Real browser pages for the Java end-to-end tests: Debian's Chromium (/usr/bin/chromium, or
// CHROMIUM_PATH) driven by playwright-core, pinned in package-lock.json. One JSON command per stdin
// line, one JSON answer per stdout line carrying the command's ref:
//
//   {"ref":1,"op":"open","page":"a","url":"http://127.0.0.1:8080/?room=r"}   -> {"ref":1,"ok":true}
//   {"ref":2,"op":"eval","page":"a","expression":"window.canvasAgent.status"}  -> {"ref":2,"ok":true,"value":…}
//   {"ref":3,"op":"waitFor","page":"a","expression":"…truthy when done…","timeoutMs":30000}
//   {"ref":4,"op":"fill","page":"a","selector":"[data-testid=prompt]","text":"…"}
//   {"ref":5,"op":"click"|"press"|"drag"|"screenshot"|"offline"|"requests"|"close", …}
//
// A failure answers {"ref","ok":false,"error"}. Each page has a browser context of its own (its own
// storage and network), and records every request it makes and every error it logs. The process ends
// when stdin ends, closing the browser.
import { createInterface } from 'node:readline'
import { chromium } from 'playwright-core'

for (const level of ['log', 'info', 'warn', 'debug', 'error']) {
  console[level] = (...args) => process.stderr.write(args.map(String).join(' ') + '\n')
}

const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
// No traffic of Chromium's own: the machine reaches no network but loopback. (launch() gives the
// browser a new, empty profile of its own each time.)
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic'],
})
const pages = new Map()

async function open({ page: name, url, width = 1280, height = 800 }) {
  const context = await browser.newContext({ viewport: { width, height } })
  const page = await context.newPage()
  const record = { context, page, requests: [], errors: [] }
  page.on('request', (request) => record.requests.push(request.url()))
  page.on('pageerror', (error) => record.errors.push(`pageerror: ${error.message}`))
  page.on('response', (response) => {
    if (response.status() >= 400) record.errors.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`)
  })
  page.on('console', (message) => {
    if (message.type() === 'error') record.errors.push(`console: ${message.text()} (${message.location()?.url ?? ''})`)
  })
  pages.set(name, record)
  await page.goto(url)
}

const of = (name) => {
  const record = pages.get(name)
  if (!record) throw new Error(`no page named ${name}`)
  return record
}

const commands = {
  open,
  eval: ({ page, expression }) => of(page).page.evaluate(expression),
  waitFor: async ({ page, expression, timeoutMs }) => {
    await of(page).page.waitForFunction(expression, null, { timeout: timeoutMs, polling: 50 })
  },
  fill: ({ page, selector, text }) => of(page).page.fill(selector, text),
  click: ({ page, selector }) => of(page).page.click(selector),
  press: ({ page, selector, key }) => of(page).page.press(selector, key),
  drag: async ({ page, from, to }) => {
    const mouse = of(page).page.mouse
    await mouse.move(from.x, from.y)
    await mouse.down()
    await mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 })
    await mouse.move(to.x, to.y, { steps: 5 })
    await mouse.up()
  },
  screenshot: ({ page, path }) => of(page).page.screenshot({ path }).then(() => path),
  offline: ({ page, offline }) => of(page).context.setOffline(offline),
  requests: ({ page }) => of(page).requests,
  errors: ({ page }) => of(page).errors,
  close: async ({ page }) => {
    const record = pages.get(page)
    pages.delete(page)
    await record?.context.close()
  },
}

function answer(fields) {
  process.stdout.write(JSON.stringify(fields) + '\n')
}

// Commands run one after another, in the order they came.
let done = Promise.resolve()
const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  let command
  try {
    command = JSON.parse(line)
  } catch (error) {
    answer({ ref: null, ok: false, error: `not JSON: ${line}` })
    return
  }
  done = done
    .then(() => commands[command.op](command))
    .then((value) => answer({ ref: command.ref, ok: true, value: value ?? null }))
    .catch((error) => answer({ ref: command.ref, ok: false, error: String(error?.stack ?? error) }))
})
lines.on('close', () => {
  done.then(() => browser.close()).catch(() => {}).then(() => process.exit(0))
})
answer({ ref: 0, ok: true, value: { browser: browser.version() } })
