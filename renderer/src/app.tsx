/** The application shell. */
export function App() {
  return (
    <main aria-label="AgentTeam">
      <h1>AgentTeam</h1>
    </main>
  );
}
