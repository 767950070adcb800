// The console's map view: Leaflet over a world map that is part of the bundle (Natural Earth's countries at
// 1:110 million, from world-atlas), so a map asks no tile server for anything: no visitor's address goes to a third
// party, and it works offline. Bundled into service/web/static/vendor/console-map.js (and .css) by
// scripts/build-console; console.js loads it when a map is first asked for.
// window.FolioMap.draw(element, [{ lat, lng, label }]) -> the map (remove() it).
import L from "leaflet";
import "leaflet/dist/leaflet.css";
import { feature } from "topojson-client";
import world from "world-atlas/countries-110m.json";

// A ring that crosses the antimeridian (Russia's far east, Fiji) would be drawn as a band across the whole map:
// its points west of -150° are moved a turn east, so the ring stays whole on one side.
function unwrapped(ring) {
  const crosses = ring.some(([x]) => x > 150) && ring.some(([x]) => x < -150);
  return crosses ? ring.map(([x, y]) => [x < 0 ? x + 360 : x, y]) : ring;
}

const countries = feature(world, world.objects.countries);
for (const f of countries.features) {
  const g = f.geometry;
  if (g && g.type === "Polygon") { g.coordinates = g.coordinates.map(unwrapped); }
  if (g && g.type === "MultiPolygon") { g.coordinates = g.coordinates.map((polygon) => polygon.map(unwrapped)); }
}

function themed(name, fallback) {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

export function draw(element, points) {
  const map = L.map(element, { worldCopyJump: true, zoomSnap: 0.25, attributionControl: true });
  map.attributionControl.setPrefix("Leaflet · Natural Earth");
  if (points.length) {  // the view first: a layer is drawn for a view
    map.fitBounds(L.latLngBounds(points.map((p) => [p.lat, p.lng])).pad(0.3), { maxZoom: 6 });
  } else {
    map.setView([20, 0], 1);
  }
  L.geoJSON(countries, {
    interactive: false,
    style: { color: themed("--line", "#d0d7de"), weight: 1, fillColor: themed("--bg", "#ffffff"), fillOpacity: 1 },
  }).addTo(map);
  const accent = themed("--accent", "#0b5cad");
  for (const p of points) {
    L.circleMarker([p.lat, p.lng], { radius: 7, color: accent, weight: 2, fillColor: accent, fillOpacity: 0.6 })
      .bindTooltip(p.label).addTo(map);
  }
  return map;
}
