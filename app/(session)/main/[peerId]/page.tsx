/** An open conversation: the layout reads the id from the URL (lib/routing/conversation-route.ts). */
export default function ConversationPage() {
  return null;
}
