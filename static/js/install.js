// Installs the site's service worker (games/views/install.py): it lets the site be added to a
// phone's home screen, and shows a page saying so when the server cannot be reached.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // No service worker (a private window, a browser that refuses): the site works without.
    });
  });
}
