// digno preview: shows the page again, on the same screen, when the content has been built
// again (or has failed to). The server sends the number of its latest build on connecting and
// after every build; this page shows the build named in its digno-generation meta element.
// The page is updated in place: fetched again and its body put in place of this one, the
// reader's scroll position and focus kept, so that no stylesheet, picture or script is loaded
// again; where that cannot be done, it is reloaded.
"use strict";
(function () {
  const meta = document.querySelector('meta[name="digno-generation"]');
  if (!meta || typeof EventSource === "undefined") return;
  let shown = meta.content;
  let updating = false;
  let again = false;
  const events = new EventSource("/_preview/events");

  function reload() {
    events.close();
    window.location.reload();
  }

  async function update() {
    if (updating) {
      again = true;
      return;
    }
    updating = true;
    try {
      const response = await fetch(window.location.href, { cache: "no-store", credentials: "same-origin" });
      const next = new DOMParser().parseFromString(await response.text(), "text/html");
      const generation = next.querySelector('meta[name="digno-generation"]');
      if (!generation || !next.body) {
        reload();
        return;
      }
      const x = window.scrollX;
      const y = window.scrollY;
      const focused = document.activeElement && document.activeElement !== document.body ? document.activeElement.id : "";
      document.title = next.title;
      document.documentElement.lang = next.documentElement.lang;
      document.body.replaceWith(document.adoptNode(next.body));
      meta.content = generation.content;
      shown = generation.content;
      window.scrollTo(x, y);
      const refocused = focused ? document.getElementById(focused) : null;
      if (refocused) refocused.focus({ preventScroll: true });
    } catch (error) {
      reload();
      return;
    } finally {
      updating = false;
    }
    if (again) {
      again = false;
      update();
    }
  }

  events.addEventListener("message", function (event) {
    if (event.data !== shown) update();
  });
})();
