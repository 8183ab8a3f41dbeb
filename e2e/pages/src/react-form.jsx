// A React-controlled sign-up form: every control's value lives in React
// state, the DOM only mirrors it. A fill that sets the DOM without going
// through React's change handling leaves the state (and so what the page
// submits) empty, and React puts the old value back on its next render.
// The state is rendered into <pre id="state"> and kept on
// window.__reactState for the end-to-end test to read.
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

const empty = { fullName: '', email: '', phone: '', street: '', city: '', postcode: '', country: '', birthDate: '' };

function Field({ label, name, value, onChange, type = 'text', autoComplete, wide }) {
  return (
    <label className={wide ? 'wide' : undefined}>
      {label}
      <input id={name} name={name} type={type} autoComplete={autoComplete} value={value} onChange={(e) => onChange(name, e.target.value)} />
    </label>
  );
}

function SignUp() {
  const [form, setForm] = useState(empty);
  const [renders, setRenders] = useState(0);
  const set = (name, value) => setForm((f) => ({ ...f, [name]: value }));
  useEffect(() => {
    window.__reactState = form;
    setRenders((n) => n + 1);
  }, [form]);
  return (
    <>
      <form id="react-signup" onSubmit={(e) => e.preventDefault()}>
        <Field label="Full name" name="fullName" value={form.fullName} onChange={set} autoComplete="name" wide />
        <Field label="Email" name="email" type="email" value={form.email} onChange={set} autoComplete="email" />
        <Field label="Mobile phone" name="phone" type="tel" value={form.phone} onChange={set} autoComplete="tel" />
        <Field label="Street address" name="street" value={form.street} onChange={set} autoComplete="street-address" wide />
        <Field label="Town or city" name="city" value={form.city} onChange={set} autoComplete="address-level2" />
        <Field label="Postcode" name="postcode" value={form.postcode} onChange={set} autoComplete="postal-code" />
        <label>
          Country
          <select id="country" name="country" autoComplete="country" value={form.country} onChange={(e) => set('country', e.target.value)}>
            <option value="">Select…</option>
            <option value="AU">Australia</option>
            <option value="IE">Ireland</option>
            <option value="US">United States</option>
          </select>
        </label>
        <Field label="Date of birth" name="birthDate" type="date" value={form.birthDate} onChange={set} autoComplete="bday" />
        <button type="submit">Create account</button>
      </form>
      <pre id="state" data-renders={renders}>{JSON.stringify(form)}</pre>
    </>
  );
}

createRoot(document.getElementById('root')).render(<SignUp />);
