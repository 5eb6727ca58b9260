/** The conversation list: the layout shows it; this route names no conversation. */
export default function MainPage() {
  return null;
}
