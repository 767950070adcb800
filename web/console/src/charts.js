// The console's chart view: Chart.js (bar, line, pie), bundled into service/web/static/vendor/console-charts.js
// (scripts/build-console) and loaded by console.js only when a chart is first asked for.
// window.FolioCharts.draw(canvas, { type, labels, series: [{ name, values }], title }) -> the chart (destroy() it).
import {
  Chart, BarController, LineController, PieController, BarElement, LineElement, PointElement, ArcElement,
  CategoryScale, LinearScale, Legend, Tooltip, Title,
} from "chart.js";

Chart.register(BarController, LineController, PieController, BarElement, LineElement, PointElement, ArcElement,
  CategoryScale, LinearScale, Legend, Tooltip, Title);

// slices told apart by colour-blind readers too (Okabe and Ito's palette)
const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"];

// the page's own colours (light or dark scheme), read from its CSS custom properties
function themed(name, fallback) {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

export function draw(canvas, spec) {
  const fg = themed("--fg", "#1b1f24"), line = themed("--line", "#d0d7de"), accent = themed("--accent", "#0b5cad");
  Chart.defaults.color = fg;
  Chart.defaults.borderColor = line;
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  const pie = spec.type === "pie";
  return new Chart(canvas, {
    type: spec.type,
    data: {
      labels: spec.labels,
      datasets: spec.series.map((s) => ({
        label: s.name, data: s.values, borderColor: pie ? themed("--bg", "#fff") : accent,
        backgroundColor: pie ? s.values.map((_, i) => PALETTE[i % PALETTE.length]) : accent,
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,  // drawn at once: what a reader (and a test) sees is the final chart
      plugins: {
        legend: { display: pie || spec.series.length > 1 },
        title: { display: Boolean(spec.title), text: spec.title },
      },
      scales: pie ? {} : { y: { beginAtZero: true } },
    },
  });
}
