// Keeps the Book of Public Safety's page working without a network once it has been loaded:
// its files are answered from the cache, and refreshed from the server whenever it answers.
"use strict";

const CACHE = "tricolore-book-v1";
const FILES = ["/book", "/static/book.js", "/static/style.css"];

self.addEventListener("install", event => {
  event.waitUntil(caches.open(CACHE).then(cache => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", event => {
  event.waitUntil(caches.keys()
    .then(keys => Promise.all(keys.filter(k => k.startsWith("tricolore-book-") && k !== CACHE).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", event => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !FILES.includes(url.pathname)) return;
  event.respondWith(caches.open(CACHE).then(async cache => {
    const cached = await cache.match(url.pathname);
    const fresh = fetch(event.request).then(response => {
      if (response.ok) cache.put(url.pathname, response.clone());
      return response;
    });
    if (cached) {
      fresh.catch(() => undefined); // offline: the cached copy is the answer
      return cached;
    }
    return fresh;
  }));
});
