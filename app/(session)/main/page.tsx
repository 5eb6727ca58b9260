import { MainGate } from '@/components/main/main-gate';
import { MainScreen } from '@/components/main/main-screen';

export default function MainPage() {
  return (
    <MainGate>
      <MainScreen />
    </MainGate>
  );
}
