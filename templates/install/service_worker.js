{% autoescape off %}// The site's service worker (games/views/install.py). It keeps the static files and the offline
// page on the device, and shows that page when a page cannot be fetched. Nothing else goes
// through it: fragments, streams and the API always meet the server, so a move is never
// answered from a cache. It also shows the notifications the site pushes (games/push.py).
const CACHE = "nyet-{{ version }}";
const KEPT = {{ kept }};
const OFFLINE = {{ offline }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll([...KEPT, OFFLINE])).then(() => self.skipWaiting())
  );
});

// A new version's cache replaces the old ones once it is in charge.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((names) =>
      Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name)))
    )
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    // A page: always the server's, or the offline page when the server cannot be reached.
    event.respondWith(
      fetch(request).catch(() => caches.open(CACHE).then((cache) => cache.match(OFFLINE)))
    );
    return;
  }
  const url = new URL(request.url);
  if (url.origin === self.location.origin && KEPT.includes(url.pathname)) {
    event.respondWith(
      caches.open(CACHE).then((cache) =>
        cache.match(request).then((kept) => kept || fetch(request))
      )
    );
  }
});

// A notification from the site: {title, body, url, tag}. One per game at a time (its tag): a
// newer one about the same game replaces the older, and rings again.
self.addEventListener("push", (event) => {
  const message = event.data ? event.data.json() : {};
  event.waitUntil(
    self.registration.showNotification(message.title || "Nyet!", {
      body: message.body || "",
      tag: message.tag,
      renotify: Boolean(message.tag),
      icon: {{ icon }},
      data: { url: message.url || "/" },
    })
  );
});

// A click opens the game it is about: the tab that shows it already, if there is one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(
    windowShowing(url).then((open) => (open ? open.focus() : self.clients.openWindow(url)))
  );
});

// The window of this site that shows the page at ``url`` already, if any.
function windowShowing(url) {
  const wanted = new URL(url, self.location.origin).pathname;
  return self.clients
    .matchAll({ type: "window", includeUncontrolled: true })
    .then((windows) => windows.find((window) => new URL(window.url).pathname === wanted));
}
{% endautoescape %}
