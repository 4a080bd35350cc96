// Prints JSON Resume documents through third-party themes to PDF with one headless Chromium
// (cv_generation/third_party.py drives it).
//
//   node print.js JOBS.json
//
// JOBS.json is a list of {theme, dark, resume, out}: `theme` an npm package name installed beside
// this file, `dark` whether to ask for the theme's own dark colour scheme, `resume` the document,
// `out` where the PDF goes. Style sheets and fonts the themes link from a CDN are served from the
// same pinned npm packages on disk (CDN below), so printing needs no network; anything else remote
// (a Gravatar picture, Google Fonts) is refused at once and the theme falls back as it would
// offline. Prints one line per PDF written; exits 1 with the theme's error on the first failure.
"use strict";

const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");
const puppeteer = require("puppeteer-core");

const MODULES = path.join(__dirname, "node_modules");
const CDN = [
  [/^https?:\/\/maxcdn\.bootstrapcdn\.com\/bootstrap\/3\.\d\.\d+\/css\/bootstrap\.min\.css$/, "bootstrap/dist/css/bootstrap.min.css"],
  [/^https?:\/\/cdnjs\.cloudflare\.com\/ajax\/libs\/twitter-bootstrap\/3\.\d\.\d+\/css\/bootstrap\.min\.css$/, "bootstrap/dist/css/bootstrap.min.css"],
  [/^(https?:)?\/\/maxcdn\.bootstrapcdn\.com\/font-awesome\/4\.\d\.\d\/css\/font-awesome\.min\.css$/, "font-awesome/css/font-awesome.min.css"],
  [/^https?:\/\/cdnjs\.cloudflare\.com\/ajax\/libs\/font-awesome\/6\.\d\.\d\/css\/all\.min\.css$/, "@fortawesome/fontawesome-free/css/all.min.css"],
];

function local(url) {
  for (const [pattern, file] of CDN) {
    if (pattern.test(url)) return pathToFileURL(path.join(MODULES, file)).href;
  }
  return null;
}

function localise(html) {
  return html.replace(/(href|src)="((?:https?:)?\/\/[^"]+)"/g, (whole, attr, url) => {
    const file = local(url.replace(/&amp;/g, "&"));
    return file ? `${attr}="${file}"` : whole;
  });
}

async function render(theme, resume) {
  let module;
  try {
    module = require(theme);
  } catch (error) {
    module = await import(theme);
  }
  const renderer = module.render || (module.default && module.default.render);
  return renderer(resume);
}

async function main() {
  const jobs = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      "--font-render-hinting=none",
    ],
  });
  try {
    const page = await browser.newPage();
    await page.setRequestInterception(true);
    page.on("request", (request) => {
      const url = request.url();
      if (url.startsWith("file:") || url.startsWith("data:") || url === "about:blank") request.continue();
      else request.abort();
    });
    for (const job of jobs) {
      let html;
      try {
        html = localise(await render(job.theme, job.resume));
      } catch (error) {
        throw new Error(`${job.theme} (${path.basename(job.out)}): ${error.message}`);
      }
      const file = job.out + ".html";
      fs.writeFileSync(file, html);
      await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: job.dark ? "dark" : "light" }]);
      await page.goto(pathToFileURL(file).href, { waitUntil: "load", timeout: 30000 });
      await page.evaluate(() => document.fonts.ready);
      await page.pdf({ path: job.out, format: "A4", printBackground: true, timeout: 30000 });
      fs.unlinkSync(file);
      console.log(job.out);
    }
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(`print.js: ${error.message.split("\n")[0]}`);
  process.exit(1);
});
