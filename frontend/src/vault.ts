// The vault card's actions (set up, unlock, lock, recovery passphrase) and
// the Profiles section's list and New profile form (the list's rows and the
// editor are profiles.ts). Go decides every rule (passphrase length, what a
// state allows) and rejects with a message; this module only shows the
// forms that fit the state, reports errors next to the field that caused
// them and keeps focus where the person is working. Profile labels come
// from the vault, so they are set as text only; values never reach here.
import { settings as settingsBridge } from "./wails";
import { firstRun } from "./bridge";
import { autoLockWords, sentence } from "./format";
import { attachMeter } from "./meter";
import type { ProfilesView } from "./profiles";
import type { TransferPanels } from "./transfer";
import { errorText, vault, type VaultState, type VaultView } from "./wails";
import { el } from "./dom";

function showError(box: HTMLElement, inputs: HTMLInputElement[], e: unknown): void {
  box.textContent = sentence(errorText(e));
  box.hidden = false;
  for (const i of inputs) {
    i.setAttribute("aria-invalid", "true");
    i.setAttribute("aria-errormessage", box.id);
  }
  const first = inputs[0];
  if (first) {
    first.focus();
    first.select();
  }
}

function clearError(box: HTMLElement, inputs: HTMLInputElement[]): void {
  box.textContent = "";
  box.hidden = true;
  for (const i of inputs) {
    i.removeAttribute("aria-invalid");
    i.removeAttribute("aria-errormessage");
  }
}

/**
 * Runs action when form is submitted: the submit button shows busyText and
 * the form cannot be sent twice while Go works (a passphrase costs about a
 * second of scrypt); a rejection is shown in errorBox and focuses inputs[0].
 */
function onSubmit(form: HTMLFormElement, errorBox: HTMLElement, inputs: HTMLInputElement[], busyText: string, action: () => Promise<void>): void {
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const idleText = submit?.textContent ?? "";
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (form.getAttribute("aria-busy") === "true") return;
    form.setAttribute("aria-busy", "true");
    for (const b of form.querySelectorAll("button")) b.disabled = true;
    if (submit) submit.textContent = busyText;
    clearError(errorBox, inputs);
    try {
      await action();
    } catch (e) {
      showError(errorBox, inputs, e);
    } finally {
      form.removeAttribute("aria-busy");
      for (const b of form.querySelectorAll("button")) b.disabled = false;
      if (submit) submit.textContent = idleText;
    }
  });
}

/** The vault card and the Profiles section. */
export class VaultPanel {
  private view: VaultView | null = null;
  /** The element to focus once the next view is shown, after an action here. */
  private focusNext: (() => HTMLElement) | null = null;
  private freshProfile = "";
  private loading: Promise<void> | null = null;
  /** The state the latest status event reported. */
  private wanted: VaultState | null = null;

  private readonly setupPass = el<HTMLInputElement>("setup-pass");
  private readonly setupConfirm = el<HTMLInputElement>("setup-confirm");
  private readonly unlockPass = el<HTMLInputElement>("unlock-pass");
  private readonly newPass = el<HTMLInputElement>("new-pass");
  private readonly newConfirm = el<HTMLInputElement>("new-confirm");
  private readonly profileLabel = el<HTMLInputElement>("profile-label");

  /** The profile list and editor, given the list whenever it is read. */
  profiles: ProfilesView | null = null;
  /** Import and export, shown while the vault is unlocked. */
  transfer: TransferPanels | null = null;

  /** Re-rates the new passphrases (after a suggestion fills one in). */
  private readonly rateSetup: () => void;

  constructor() {
    this.rateSetup = attachMeter(this.setupPass, el("setup-strength"), el("setup-strength-text"));
    const rateNew = attachMeter(this.newPass, el("new-strength"), el("new-strength-text"));
    onSubmit(el("setup-form"), el("setup-error"), [this.setupPass, this.setupConfirm], "Creating the vault…", async () => {
      const v = await vault.setUp(this.setupPass.value, this.setupConfirm.value);
      this.setupPass.value = this.setupConfirm.value = "";
      this.forgetSuggestion();
      this.rateSetup();
      this.focusNext = () => el("lock-now");
      this.show(v);
    });
    onSubmit(el("unlock-form"), el("unlock-error"), [this.unlockPass], "Unlocking…", async () => {
      const v = await vault.unlock(this.unlockPass.value);
      this.unlockPass.value = "";
      this.focusNext = () => el("lock-now");
      this.show(v);
    });
    onSubmit(el("passphrase-form"), el("passphrase-error"), [this.newPass, this.newConfirm], "Saving…", async () => {
      const v = await vault.setPassphrase(this.newPass.value, this.newConfirm.value);
      this.newPass.value = this.newConfirm.value = "";
      rateNew();
      el("passphrase-form").hidden = true;
      this.focusNext = () => el("lock-now");
      this.show(v);
    });
    onSubmit(el("profile-form"), el("profile-error"), [this.profileLabel], "Creating…", async () => {
      const p = await vault.createProfile(this.profileLabel.value);
      this.profileLabel.value = "";
      el("profile-form").hidden = true;
      this.freshProfile = p.id;
      await this.loadProfiles();
      el("new-profile").focus();
    });

    // A suggested passphrase: shown once, typed again to confirm. The
    // passphrase field holds it; typing there replaces the suggestion.
    el("setup-suggest").addEventListener("click", async () => {
      try {
        const p = await firstRun.suggest();
        this.setupPass.value = p;
        this.setupConfirm.value = "";
        el("setup-suggested-words").textContent = p;
        el("setup-suggested").hidden = false;
        this.rateSetup();
        el("setup-suggested-words").focus();
      } catch (e) {
        showError(el("setup-error"), [], e);
      }
    });
    this.setupPass.addEventListener("input", () => this.forgetSuggestion());
    el("unlock-keyring").addEventListener("click", () => this.act(el("unlock-error"), [this.unlockPass], () => vault.unlockWithKeyring(), () => el("lock-now")));
    el("lock-now").addEventListener("click", () => this.act(el("vault-error"), [], () => vault.lock(), () => (this.view?.hasPassphrase ? this.unlockPass : el("unlock-keyring"))));
    el("recovery-open").addEventListener("click", () => {
      el("passphrase-form").hidden = false;
      this.render();
      this.newPass.focus();
    });
    el("passphrase-cancel").addEventListener("click", () => {
      el("passphrase-form").hidden = true;
      this.newPass.value = this.newConfirm.value = "";
      clearError(el("passphrase-error"), [this.newPass, this.newConfirm]);
      this.render();
      el("recovery-open").focus();
    });
    // Escape closes a secondary form the way its cancel button does.
    for (const [form, cancel] of [["profile-form", "profile-cancel"], ["passphrase-form", "passphrase-cancel"]]) {
      el(form).addEventListener("keydown", (ev) => {
        if (ev.key === "Escape") el(cancel).click();
      });
    }
    el("new-profile").addEventListener("click", () => {
      el("profile-form").hidden = false;
      this.profileLabel.focus();
    });
    el("profile-cancel").addEventListener("click", () => {
      el("profile-form").hidden = true;
      this.profileLabel.value = "";
      clearError(el("profile-error"), [this.profileLabel]);
      el("new-profile").focus();
    });
  }

  /** Says on the card when the vault locks itself (the time is set in Settings). */
  private autoLockHint(): void {
    settingsBridge
      .vault()
      .then((s) => (el("autolock-hint").textContent = `The vault also locks itself ${autoLockWords(s.autoLockMinutes)} (change it in Settings).`))
      .catch(() => {});
  }

  /** Hides and forgets a suggested passphrase: it is shown once only. */
  private forgetSuggestion(): void {
    el("setup-suggested-words").textContent = "";
    el("setup-suggested").hidden = true;
  }

  /** Runs a one-click vault action (keyring unlock, lock), showing a failure in box. */
  private async act(box: HTMLElement, inputs: HTMLInputElement[], f: () => Promise<VaultView>, focus: () => HTMLElement): Promise<void> {
    clearError(box, inputs);
    try {
      this.focusNext = focus;
      this.show(await f());
    } catch (e) {
      this.focusNext = null;
      box.textContent = sentence(errorText(e));
      box.hidden = false;
    }
  }

  /**
   * Brings the card up to date with the state in a status event; the card
   * asks Go for the details (passphrase, keyring) only when the state moved.
   */
  sync(state: VaultState): void {
    this.wanted = state;
    // A status event also follows a new auto-lock time.
    if (state === "unlocked" && this.view?.state === "unlocked") this.autoLockHint();
    if (this.view?.state === state || this.loading) return;
    this.loading = vault
      .view()
      .then((v) => {
        this.loading = null;
        this.show(v);
        // The state moved again while Go answered.
        if (this.wanted && this.wanted !== v.state) this.sync(this.wanted);
      })
      .catch((e) => {
        this.loading = null;
        el("vault-error").textContent = sentence(errorText(e));
        el("vault-error").hidden = false;
      });
  }

  /** Called when the Profiles section opens: its list is read fresh. */
  opened(): void {
    if (this.view?.state === "unlocked") void this.loadProfiles();
  }

  private show(v: VaultView): void {
    const moved = this.view?.state !== v.state;
    this.view = v;
    this.render();
    if (moved) void this.loadProfiles();
    const f = this.focusNext;
    this.focusNext = null;
    if (f) f().focus();
  }

  private render(): void {
    const v = this.view;
    if (!v) return;
    const st = v.state;
    el("vault-card").dataset.vaultState = st;
    el("setup-form").hidden = st !== "uninitialized";

    el("unlock-form").hidden = st !== "locked";
    // A vault that only the keyring opens has no passphrase to type.
    for (const e of [this.unlockPass.parentElement!, el("unlock-submit")]) e.hidden = !v.hasPassphrase;
    el("unlock-keyring").hidden = !v.keyringUsable;
    el("unlock-keyring").className = v.hasPassphrase ? "button" : "button primary";
    const problem = el("keyring-problem");
    problem.textContent = v.keyringProblem && v.hasKeyring ? `The keyring could not be used: ${v.keyringProblem}` : "";
    problem.hidden = problem.textContent === "";

    const unlocked = st === "unlocked";
    el("unlocked-actions").hidden = !unlocked;
    if (!unlocked) el("passphrase-form").hidden = true;
    if (st !== "uninitialized") this.forgetSuggestion();
    if (unlocked) this.autoLockHint();
    el("vault-keys").textContent =
      v.hasPassphrase && v.hasKeyring
        ? "Opens with your passphrase or, without typing, this computer's keyring."
        : v.hasPassphrase
          ? "Opens with your passphrase: no keyring holds it on this computer."
          : "Opens with this computer's keyring only.";
    el("recovery-note").hidden = !unlocked || v.hasPassphrase || !el("passphrase-form").hidden;
    if (st !== "locked") clearError(el("unlock-error"), [this.unlockPass]);
    if (st !== "uninitialized") clearError(el("setup-error"), [this.setupPass, this.setupConfirm]);
    el("vault-error").hidden = true;

    el("new-profile").hidden = !unlocked;
    this.transfer?.sync(unlocked, null);
    if (!unlocked) {
      el("profile-form").hidden = true;
      el("profiles").replaceChildren();
      el("profiles-empty").hidden = true;
      el("profiles-error").hidden = true;
      this.profiles?.locked();
    }
    const locked = el("profiles-locked");
    locked.hidden = unlocked;
    locked.textContent =
      st === "uninitialized"
        ? "There is no vault yet. Set one up on the Status screen, then create your first profile here."
        : "The vault is locked. Unlock it on the Status screen to see your profiles.";
  }

  /** Reads the profile list again (after the editor changed it). */
  async loadProfiles(): Promise<void> {
    if (this.view?.state !== "unlocked") return;
    const err = el("profiles-error");
    try {
      const ps = await vault.profiles();
      if (this.view?.state !== "unlocked") return;
      this.profiles?.list(ps, this.freshProfile);
      this.transfer?.sync(true, ps);
      el("profiles-empty").hidden = ps.length > 0;
      err.hidden = true;
    } catch (e) {
      err.textContent = sentence(errorText(e));
      err.hidden = false;
    }
  }
}
