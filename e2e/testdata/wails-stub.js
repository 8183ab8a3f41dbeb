// A stand-in for the Wails bridge, for the accessibility check
// (a11y_test.go): the window's frontend, built as it ships, loaded in
// Chromium with canned answers for each binding. The state the page starts
// in comes from the URL's hash (#uninitialized, #locked, #unlocked).
(() => {
  const state = (location.hash || "#unlocked").slice(1);
  const t = "2026-11-25T10:00:00Z";
  const home = { id: "home", label: "Home", entries: 4, updated: t };
  const work = { id: "work", label: "Work", entries: 1, updated: t };
  const v = (value, extra = {}) => ({ value, source: "Typed in Tessera", sourceType: "manual", added: t, ...extra });
  const concepts = [
    { iri: "https://schema.org/givenName", label: "First name", group: "name", kind: "text" },
    { iri: "https://schema.org/familyName", label: "Last name", group: "name", kind: "text" },
    { iri: "https://schema.org/email", label: "Email", group: "contact", kind: "email" },
    { iri: "https://schema.org/telephone", label: "Phone", group: "contact", kind: "tel" },
    { iri: "https://schema.org/streetAddress", label: "Street address", group: "address", kind: "multiline" },
    { iri: "https://schema.org/addressCountry", label: "Country", group: "address", kind: "country" },
    { iri: "https://schema.org/birthDate", label: "Birth date", group: "dates", kind: "date" },
  ];
  const groups = [
    { id: "name", label: "Name", concepts: null },
    { id: "contact", label: "Contact", concepts: null },
    { id: "address", label: "Address", concepts: null },
    { id: "dates", label: "Dates", concepts: null },
  ];
  const c = (i, values) => ({ ...concepts[i], values });
  const detail = {
    ...home, created: t, fields: [{ path: "shop.example/newsletter", value: v("yes") }],
    groups: [
      { id: "name", label: "Name", concepts: [c(0, [v("Ada")]), c(1, [v("Lovelace")])] },
      { id: "contact", label: "Contact", concepts: [c(2, [v("ada@example.org"), v("ada@work.example", { sourceType: "import", source: "Imported from a vCard" })]), c(3, [v("+442079460018", { display: "020 7946 0018" })])] },
      { id: "address", label: "Address", concepts: [c(4, [v("12 St James's Square")]), c(5, [v("GB")])] },
      { id: "dates", label: "Dates", concepts: [c(6, [v("1815-12-10")])] },
    ],
  };
  const vaultView = () => ({ state: window.__state, hasPassphrase: true, hasKeyring: false, keyringUsable: false });
  window.__state = state;
  const ok = (x) => () => Promise.resolve(typeof x === "function" ? x() : x);
  const UI = {
    Status: ok(() => ({ version: "test", vault: window.__state, socket: "/run/user/1000/tessera", clients: [{ id: "c1", kind: "browser", name: "Chromium", origin: "chrome-extension://x/", connected: t, verified: true, browser: "chromium" }] })),
    Quit: ok(null),
    Vault: ok(vaultView),
    SetUpVault: ok(vaultView),
    Unlock: ok(vaultView),
    UnlockWithKeyring: ok(vaultView),
    Lock: ok(vaultView),
    SetPassphrase: ok(vaultView),
    Profiles: ok([home, work]),
    CreateProfile: ok(home),
    Activity: ok({
      entries: [
        { seq: 1, time: t, event: "import", summary: "Imported 6 details into Home from a vCard file", outcome: "imported", tone: "ok", site: "", fields: ["Email", "Organisation"], profileId: "home", profile: "Home", client: "vCard file" },
        { seq: 0, time: t, event: "release", summary: "Filled 2 details on shop.example from Home", outcome: "approved", tone: "ok", site: "shop.example", origin: "https://shop.example", frame: "main page", fields: ["Email", "Phone"], profileId: "home", profile: "Home", client: "Chromium" },
      ],
      matched: 2, total: 2, sites: ["shop.example"], profiles: [home],
    }),
    ConceptCatalog: ok({ groups, concepts }),
    ProfileDetail: ok(detail),
    SearchProfiles: ok([]),
    RenameProfile: ok(home), DuplicateProfile: ok(home), DeleteProfile: ok(null),
    SetValue: ok(detail), AddValue: ok(detail), PromoteValue: ok(detail), DeleteValue: ok(detail), DeleteField: ok(detail),
    PendingConfirmation: ok(null), Decide: ok(null), SwitchProfile: ok(null),
    RememberedSites: ok([{ origin: "https://checkout.shop.example", site: "shop.example", profileId: "home", profile: "Home", kinds: ["Email", "Phone"], created: t, lastUsed: t }]),
    ForgetSite: ok(null),
    Browsers: ok({ browsers: [{ name: "chromium", label: "Chromium", found: true, host: "registered", manifest: "/home/you/.config/chromium/NativeMessagingHosts/dev.tessera.host.json" }, { name: "firefox", label: "Firefox", found: false, host: "missing", manifest: "/home/you/.mozilla/native-messaging-hosts/dev.tessera.host.json" }], connected: [], executable: "/usr/bin/tessera-host" }),
    RegisterBrowser: ok(null),
    VaultSettings: ok(() => ({ dir: "/home/you/.config/tessera", state: window.__state, hasPassphrase: true, hasKeyring: false, autoLockMinutes: 15, autoLockChoices: [1, 5, 15, 30, 60, 240, 0], lockOnSession: true, sessionWatched: true })),
    PassphraseStrength: (p) => Promise.resolve(p.length < 8 ? { score: 0, acceptable: false, words: "too short", advice: "Use at least 8 characters." } : { score: 4, acceptable: true, words: "very strong" }),
    SuggestPassphrase: ok("orbit lantern meadow velvet quartz harbour"),
    SetAutoLock: ok(null),
    Autostart: ok({ supported: true, enabled: false }), SetAutostart: ok({ supported: true, enabled: true }),
    SyncStatus: ok({ enabled: true, running: true, status: { folder: "/home/you/Sync/tessera", name: "Laptop", lastSync: t, devices: [{ device: "d1", name: "Laptop", self: true, seq: 12, lastChange: t }, { device: "d2", name: "Desktop", seq: 9, lastChange: t }], conflicts: [{ profile: "home", key: "concept:https://schema.org/email", values: 2, devices: ["d1", "d2"] }] } }),
    SetUpSync: ok(null), SyncNow: ok(null), RemoveSyncDevice: ok(null), StopSync: ok(null),
    Locale: ok({ tag: "en", countries: [{ code: "FR", name: "France" }, { code: "GB", name: "United Kingdom" }], languages: [{ code: "en", name: "English" }] }),
    PreviewImport: ok({
      token: "t", format: "vcf", formatLabel: "vCard file", profiles: [home, work],
      items: [
        { index: 0, label: "Ada Lovelace", into: "home", intoLabel: "Home", new: 3, same: 2, conflicts: 1, entries: [{ label: "Email", group: "contact", change: "conflict" }, { label: "Organisation", group: "organisation", change: "new" }, { label: "First name", group: "name", change: "same" }] },
        { index: 1, label: "Charles Babbage", into: "", new: 4, same: 0, conflicts: 0, entries: [{ label: "Email", group: "contact", change: "new" }] },
      ],
    }),
    PlanImportInto: ok(null), ApplyImport: ok(null), CancelImport: ok(null),
    ExportProfiles: ok(null), SuggestExportPath: ok("/home/you/Documents/tessera-export-2026-11-25.tessera"),
    ChooseImportFile: ok(""), ChooseExportFile: ok(""),
  };
  window.go = { ui: { UI } };
  window.runtime = { EventsOn: () => () => {} };
})();
