// digno preview: reloads the page, on the same screen, when the content has been built again
// (or has failed to). The server sends the number of its latest build on connecting and after
// every build; this page shows the build named in its digno-generation meta element.
"use strict";
(function () {
  const meta = document.querySelector('meta[name="digno-generation"]');
  if (!meta || typeof EventSource === "undefined") return;
  const shown = meta.content;
  const events = new EventSource("/_preview/events");
  events.addEventListener("message", function (event) {
    if (event.data !== shown) {
      events.close();
      window.location.reload();
    }
  });
})();
