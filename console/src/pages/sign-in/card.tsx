import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import { common, LanguagePicker } from "../../components";
import { BASE, followLink } from "../../shell/router";

/**
 * The card of a signed-out page (sign-in, sign-up): its title (the tab's too), intro and what it asks, then the
 * way to the other page (`other`: the question, the link's text, its path) and the language picker.
 */
export function SignedOutCard({
  title,
  intro,
  other,
  children,
}: {
  title: string;
  intro: string;
  other: { question: string; link: string; path: string };
  children: ComponentChildren;
}) {
  const pageTitle = common("pageTitle", { title });
  // Apart from the focus: a language switch retitles the tab, and the focus stays on the language picker.
  useEffect(() => {
    document.title = pageTitle;
  }, [pageTitle]);
  return (
    <main class="sign-in" id="main">
      <div class="card">
        <h1>{title}</h1>
        <p class="muted">{intro}</p>
        {children}
        <p class="switch-form">
          {other.question}{" "}
          <a href={`${BASE}${other.path}`} onClick={followLink}>
            {other.link}
          </a>
        </p>
        <LanguagePicker />
      </div>
    </main>
  );
}
