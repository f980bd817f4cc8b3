import type { DoctorReport } from '@shared/contract/endpoints';
import { formatElapsed } from '../../lib/format';

const checkLabels: Record<DoctorReport['checks'][number]['name'], string> = {
  reach: 'Reachable',
  models: 'Model list',
  chat: 'Chat',
  streaming: 'Streaming',
  tools: 'Tool calls',
  reasoning: 'Reasoning',
  usage: 'Usage figures',
  context: 'Context length',
};

/** The doctor's words, with `commands` in backticks set as code. */
function Words({ text }: { text: string }) {
  return text.split(/`([^`]+)`/).map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
}

/** What the endpoint doctor found: the problem first, in words to act on, then one line per check. */
export function DoctorReportView({ report }: { report: DoctorReport }) {
  return (
    <div className={`doctor ${report.ok ? 'doctor-ok' : 'doctor-bad'}`} data-testid="doctor-report">
      {report.problem ? (
        <p className="doctor-problem" role="alert">
          <Words text={report.problem.message} />
        </p>
      ) : (
        <p className="doctor-verdict" role="status">
          {report.ok ? 'Works' : 'Something is not right'}
          {report.models !== undefined && ` · ${report.models} ${report.models === 1 ? 'model' : 'models'}`}
        </p>
      )}
      <ul className="doctor-checks">
        {report.checks.map((c) => (
          <li key={c.name} className={c.ok ? 'check-ok' : c.unseen ? 'check-unseen' : 'check-bad'}>
            <span className="check-mark" aria-hidden="true">
              {c.ok ? '✓' : c.unseen ? '–' : '✗'}
            </span>
            <span className="sr-only">{c.ok ? 'works: ' : c.unseen ? 'not seen: ' : 'fails: '}</span>
            <span>
              <strong>{checkLabels[c.name]}</strong>
              {/* The problem above already says it in full. */}
              {c.detail !== report.problem?.message && (
                <>
                  {' '}
                  <Words text={c.detail} />
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
      <p className="help">
        Requests go to <code>{report.baseUrl}</code> · checked in {formatElapsed(report.elapsedMs)}
      </p>
    </div>
  );
}
