import {
  Button,
  Grid,
  Group,
  NumberInput,
  Paper,
  Select,
  Slider,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { isChatModel } from '@switchyard/contract/model-kinds';
import { PLAYGROUND_MAX_TOKENS } from '@switchyard/contract/playground';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { PageHeader } from '../../../components/PageHeader';
import { useAvailableModels } from '../../tokens/api/token-edit';
import { type ChatTurn, streamChat } from '../api/chat-stream';
import { usePlaygroundKeys } from '../api/playground-queries';
import { ChatTurnView, type Turn } from './ChatTurnView';

const TEMPORARY = 'temporary';

/** A chat with a model through the gateway, with one of the user's keys (kept on the server). */
export function PlaygroundPage() {
  const { t } = useTranslation();
  const keys = usePlaygroundKeys();
  const models = useAvailableModels();
  const chatModels = (models.data ?? []).filter(isChatModel);
  const [keyChoice, setKeyChoice] = useState(TEMPORARY);
  const [chosenModel, setModel] = useState<string | null>(null);
  const model = chosenModel ?? chatModels[0] ?? null;
  const [temperature, setTemperature] = useState(0.7);
  const [maxTokens, setMaxTokens] = useState<number | string>('');
  const [system, setSystem] = useState('');
  const [draft, setDraft] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const controller = useRef<AbortController | null>(null);
  const streaming = turns.at(-1)?.streaming === true;

  const updateLast = (change: (turn: Turn) => Turn) =>
    setTurns((current) => [...current.slice(0, -1), change(current.at(-1) as Turn)]);

  const send = async () => {
    const question = draft.trim();
    if (!question || !model || streaming) return;
    const history: ChatTurn[] = turns
      .filter((turn) => !turn.error && turn.content)
      .map(({ role, content }) => ({ role, content }));
    const messages: ChatTurn[] = [
      ...(system.trim() ? [{ role: 'system' as const, content: system.trim() }] : []),
      ...history,
      { role: 'user', content: question },
    ];
    setDraft('');
    setTurns((current) => [
      ...current,
      { role: 'user', content: question },
      { role: 'assistant', content: '', streaming: true },
    ]);
    const abort = new AbortController();
    controller.current = abort;
    const tokens = typeof maxTokens === 'number' && maxTokens > 0 ? maxTokens : undefined;
    const end = await streamChat(
      {
        ...(keyChoice === TEMPORARY ? {} : { token_id: Number(keyChoice) }),
        model,
        messages,
        temperature,
        ...(tokens ? { max_tokens: tokens } : {}),
      },
      abort.signal,
      (piece) => updateLast((turn) => ({ ...turn, content: turn.content + piece })),
    );
    controller.current = null;
    updateLast((turn) => ({
      ...turn,
      streaming: false,
      requestId: end.requestId,
      stopped: abort.signal.aborted,
      ...(end.error ? { error: end.error } : {}),
    }));
  };

  const keyOptions = [
    { value: TEMPORARY, label: t('playground.temporaryKey') },
    ...(keys.data ?? []).map((key) => ({ value: String(key.id), label: `${key.name} (${key.masked})` })),
  ];

  return (
    <>
      <PageHeader title={t('playground.title')}>
        <Button
          variant="default"
          mih={44}
          disabled={turns.length === 0 || streaming}
          onClick={() => setTurns([])}
        >
          {t('playground.clear')}
        </Button>
      </PageHeader>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 2, md: 1 }}>
          <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                {t('playground.intro')}
              </Text>
              <Select
                label={t('playground.key')}
                data={keyOptions}
                value={keyChoice}
                allowDeselect={false}
                onChange={(next) => setKeyChoice(next ?? TEMPORARY)}
                data-testid="playground-key"
              />
              <Select
                label={t('playground.model')}
                data={chatModels}
                value={model}
                searchable
                allowDeselect={false}
                nothingFoundMessage={t('playground.noModels')}
                onChange={setModel}
                error={models.isSuccess && chatModels.length === 0 ? t('playground.noModels') : undefined}
                data-testid="playground-model"
              />
              <div>
                <Text size="sm" fw={500} mb={4} id="playground-temperature">
                  {t('playground.temperature')}: {temperature.toFixed(1)}
                </Text>
                <Slider
                  min={0}
                  max={2}
                  step={0.1}
                  value={temperature}
                  onChange={setTemperature}
                  label={null}
                  thumbProps={{ 'aria-labelledby': 'playground-temperature' }}
                  py="sm"
                />
              </div>
              <NumberInput
                label={t('playground.maxTokens')}
                placeholder={t('playground.maxTokensHint')}
                min={1}
                max={PLAYGROUND_MAX_TOKENS}
                allowDecimal={false}
                value={maxTokens}
                onChange={setMaxTokens}
              />
              <Textarea
                label={t('playground.systemPrompt')}
                autosize
                minRows={2}
                maxRows={6}
                value={system}
                onChange={(event) => setSystem(event.currentTarget.value)}
              />
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 1, md: 2 }}>
          <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
            <Stack gap="sm" data-testid="playground-conversation">
              {turns.length === 0 ? (
                <EmptyPanel title={t('playground.empty')} text={t('playground.emptyText')} />
              ) : (
                turns.map((turn, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: turns are only appended or cleared.
                  <ChatTurnView key={index} turn={turn} />
                ))
              )}
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  void send();
                }}
              >
                <Textarea
                  aria-label={t('playground.message')}
                  placeholder={t('playground.messagePlaceholder')}
                  autosize
                  minRows={2}
                  maxRows={8}
                  value={draft}
                  onChange={(event) => setDraft(event.currentTarget.value)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                      event.preventDefault();
                      void send();
                    }
                  }}
                />
                <Group justify="flex-end" mt="sm">
                  {streaming ? (
                    <Button color="red" variant="light" mih={44} onClick={() => controller.current?.abort()}>
                      {t('playground.stop')}
                    </Button>
                  ) : (
                    <Button type="submit" mih={44} disabled={!model || !draft.trim()}>
                      {t('playground.send')}
                    </Button>
                  )}
                </Group>
              </form>
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>
    </>
  );
}
